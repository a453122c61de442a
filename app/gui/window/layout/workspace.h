#pragma once
// A workspace is an arrangement of the docks for one activity, given as data: columns of rows,
// each row one dock or a tab group of several, with the share of the width and height each gets.
// Train watches a run (Run dock, curves, attention); Inspect studies a run's attention (the
// Attention dock large, heads, ablation and decoding beside it); Present is the projector's
// (attention on three quarters of the screen, the rest hidden but one click away).
//
// The shares depend on the room there is: at a laptop's 1280 × 720 (or a 1920 × 1080 projector
// at 150 %, the same logical size) the curves get whole rows of their own and the small docks
// share tab groups, while a large screen has room to show more side by side. A dock no workspace
// names (one added later) joins the tab group marked `takes_others`, so adding a dock needs no
// change here to be placed somewhere sensible.
#include <QSize>
#include <QString>
#include <QStringList>

#include <vector>

namespace ascope {

struct WorkspaceRow {
  QStringList docks;  ///< one dock, or several tabbed together; the first is raised
  double height_share = 1.0;
  bool takes_others = false;  ///< docks the workspace does not name are added here as tabs
};

struct WorkspaceColumn {
  double width_share = 1.0;
  std::vector<WorkspaceRow> rows;
};

struct Workspace {
  QString id;                            ///< "train", "inspect", "present"
  QString title;                         ///< for the View menu
  std::vector<WorkspaceColumn> columns;  ///< left to right
  QStringList hidden;  ///< docks kept out of sight (tabbed into the `takes_others` row, closed)

  /// Every dock the workspace names, hidden ones included.
  QStringList named() const;

  /// For a window of `room` (logical pixels).
  static Workspace train(QSize room);
  static Workspace inspect(QSize room);
  static Workspace present(QSize room);
  /// By id; Train for an unknown one.
  static Workspace byId(const QString& id, QSize room);
  static QStringList ids();
};

}  // namespace ascope
