#include "app/gui/window/layout/workspace.h"

#include <QCoreApplication>

namespace ascope {
namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("Workspace", text);
}

/// Below this many logical pixels of height, the curves, the attention and the small docks do
/// not all fit one above the other with readable plots (1280 × 720 leaves about 620 for docks).
constexpr int kTallWindow = 900;
/// Below this (1024 × 600: about 500 for docks), the attention and a small dock do not fit one
/// above the other at all: they take turns in one tab group.
constexpr int kShortWindow = 650;

}  // namespace

QStringList Workspace::named() const {
  QStringList all = hidden;
  for (const WorkspaceColumn& column : columns) {
    for (const WorkspaceRow& row : column.rows) all << row.docks;
  }
  return all;
}

Workspace Workspace::train(QSize room) {
  Workspace w;
  w.id = QStringLiteral("train");
  w.title = tr("Train");
  if (room.height() >= kTallWindow) {
    // Room for everything: Run over Sample, the curves over the log, attention over the rest.
    w.columns = {
        {0.19, {{{"runDock"}, 0.54}, {{"sampleDock"}, 0.46}}},
        {0.32, {{{"lossDock"}, 0.35}, {{"accuracyDock"}, 0.35}, {{"logDock"}, 0.30}}},
        {0.49,
         {{{"attentionDock", "computationDock"}, 0.58},
          {{"positionalEncodingDock", "decodingDock", "headsDock", "ablationDock", "errorsDock"},
           0.42,
           true}}},
    };
  } else if (room.height() < kShortWindow) {
    w.columns = {
        {0.24, {{{"runDock"}, 1.0}}},
        {0.31, {{{"lossDock"}, 0.5}, {{"accuracyDock"}, 0.5}}},
        {0.45,
         {{{"attentionDock", "computationDock", "sampleDock", "positionalEncodingDock",
            "decodingDock", "headsDock", "ablationDock", "errorsDock", "logDock"},
           1.0,
           true}}},
    };
  } else {
    // A laptop: the Run dock scrolls its settings (its controls are in the toolbar) above the
    // sample under the scope, the two curves have half the height each, and the attention has
    // its column's whole height, taking turns with the small docks: below it they would leave
    // the enlarged head under 100 px.
    w.columns = {
        {0.22, {{{"runDock"}, 0.56}, {{"sampleDock"}, 0.44}}},
        {0.28, {{{"lossDock"}, 0.5}, {{"accuracyDock"}, 0.5}}},
        {0.50,
         {{{"attentionDock", "computationDock", "positionalEncodingDock", "decodingDock",
            "headsDock", "ablationDock", "errorsDock", "logDock"},
           1.0,
           true}}},
    };
  }
  return w;
}

Workspace Workspace::inspect(QSize room) {
  Workspace w;
  w.id = QStringLiteral("inspect");
  w.title = tr("Inspect");
  const bool tall = room.height() >= kTallWindow;
  w.columns = {
      {0.58, {{{"attentionDock", "computationDock"}, 1.0}}},
      {0.42,
       {{{"headsDock", "ablationDock", "errorsDock", "decodingDock", "positionalEncodingDock"},
         tall ? 0.45 : 0.5},
        {{"sampleDock", "lossDock", "accuracyDock", "runDock", "logDock"},
         tall ? 0.55 : 0.5,
         true}}},
  };
  return w;
}

Workspace Workspace::present(QSize room) {
  Q_UNUSED(room);
  Workspace w;
  w.id = QStringLiteral("present");
  w.title = tr("Present");
  w.columns = {
      {0.28,
       {{{"lossDock", "accuracyDock"}, 0.5},
        {{"sampleDock", "positionalEncodingDock"}, 0.5, true}}},
      // A weight clicked in the attention opens its computation in the same place.
      {0.72, {{{"attentionDock", "computationDock"}, 1.0}}},
  };
  w.hidden = {QStringLiteral("runDock"),      QStringLiteral("logDock"),
              QStringLiteral("headsDock"),    QStringLiteral("ablationDock"),
              QStringLiteral("decodingDock"), QStringLiteral("errorsDock")};
  return w;
}

Workspace Workspace::byId(const QString& id, QSize room) {
  if (id == QLatin1String("inspect")) return inspect(room);
  if (id == QLatin1String("present")) return present(room);
  return train(room);
}

QStringList Workspace::ids() {
  return {QStringLiteral("train"), QStringLiteral("inspect"), QStringLiteral("present")};
}

}  // namespace ascope
