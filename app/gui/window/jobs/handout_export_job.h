#pragma once
// Writes a run's lecture handout (engine/handout/handout_writer.h) on a worker thread for the
// window's File → Export for students…: the same page `attentionscope-cli handout` writes, with
// progress and the result as queued signals, so the window never waits. Cancelling stops at the
// next snapshot read and leaves no file.
#include <QString>

#include "app/gui/bridge/worker_job.h"

namespace ascope {

struct HandoutExportRequest {
  QString run_dir;
  QString path;  ///< the HTML file to write
  double max_mb = 20;
  QString theme;  ///< "light", "dark", "contrast" or "" (the reader's system)
};

class HandoutExportJob : public WorkerJob {
  Q_OBJECT

 public:
  explicit HandoutExportJob(QObject* parent = nullptr);

  /// Starts writing; false (and nothing started) while one runs.
  bool start(const HandoutExportRequest& request);

 Q_SIGNALS:
  void progress(int done, int total);
  /// `ok`: written, and `summary` says what it holds; `cancelled`: nothing was written; else
  /// `error` says why not.
  void finished(bool ok, bool cancelled, const QString& summary, const QString& error);
};

}  // namespace ascope
