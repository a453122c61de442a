#pragma once
// File → Export for students…: the shown run as one offline HTML page (engine/handout), written
// by HandoutExportJob in the background with a progress dialog that can cancel it. The page
// starts in the window's colours (light, dark or high contrast).
#include <QObject>

#include "app/gui/window/jobs/handout_export_job.h"

class QAction;
class QProgressDialog;
class QWidget;

namespace ascope {

class CurrentRun;

class HandoutExportActions : public QObject {
  Q_OBJECT

 public:
  HandoutExportActions(const CurrentRun* run, QWidget* dialog_parent);

  QAction* action() const { return action_; }
  HandoutExportJob* job() const { return job_; }
  QProgressDialog* progressDialog() const { return progress_; }

  /// Asks where and how large, then exports with a progress dialog.
  void exportInteractively();
  /// Exports the shown run to `path` with a progress dialog (Cancel stops it); false when no run
  /// is shown or an export is running.
  bool startWithProgress(const QString& path, double max_mb);
  /// "light", "dark" or "contrast", read off the window's palette.
  QString windowTheme() const;

 Q_SIGNALS:
  void message(const QString& text);
  /// The export ended: written (`ok`), cancelled, or failed (a warning was shown).
  void exported(bool ok);

 private:
  void onFinished(bool ok, bool cancelled, const QString& summary, const QString& error);

  const CurrentRun* run_;
  QWidget* parent_;
  QAction* action_;
  HandoutExportJob* job_;
  QProgressDialog* progress_ = nullptr;
};

}  // namespace ascope
