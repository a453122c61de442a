#pragma once
// File → Export attention video… and --export-video: builds the export's request from what the
// Attention dock shows (group, probe sample, colour scale, rollout settings, the window's look),
// runs AttentionVideoExport with a progress dialog that can cancel it, and reports the outcome.
#include <QObject>
#include <QString>

#include "app/gui/window/export/attention_video_export.h"

class QAction;
class QProgressDialog;
class QWidget;

namespace ascope {

class AttentionPresenter;
class CurrentRun;

/// What --export-video asked for: the file, "head", "grid" or "overlay", the layer, head and
/// frames per second.
struct ScriptedVideoRequest {
  QString path;
  QString view;
  int layer = 0;
  int head = 0;
  int fps = 4;
};

class AttentionVideoActions : public QObject {
  Q_OBJECT

 public:
  AttentionVideoActions(AttentionPresenter* attention, const CurrentRun* run,
                        QWidget* dialog_parent);

  QAction* action() const { return action_; }
  AttentionVideoExport* exporter() const { return exporter_; }

  /// A request for `path` as the Attention dock shows the run now.
  AttentionVideoRequest requestFor(const QString& path, AttentionFrameView view, int layer,
                                   int head, int fps) const;
  /// Asks what to export and where, then exports with a progress dialog.
  void exportInteractively();
  /// Exports `request` with a progress dialog (Cancel stops it); the outcome is a message, or a
  /// warning dialog for a failure.
  void startWithProgress(const AttentionVideoRequest& request);
  QProgressDialog* progressDialog() const { return progress_; }
  /// --export-video: exports, waiting, and prints the outcome; returns the exit code (0 done,
  /// 1 not written, 2 a bad value).
  int exportScripted(const ScriptedVideoRequest& asked);

 Q_SIGNALS:
  void message(const QString& text);

 private:
  void onFinished(const AttentionVideoResult& result);
  static QString summary(const AttentionVideoRequest& request, const AttentionVideoResult& result);

  AttentionPresenter* attention_;
  const CurrentRun* run_;
  QWidget* parent_;
  QAction* action_;
  AttentionVideoExport* exporter_;
  AttentionVideoRequest last_request_;
  QProgressDialog* progress_ = nullptr;
  bool interactive_ = false;
};

}  // namespace ascope
