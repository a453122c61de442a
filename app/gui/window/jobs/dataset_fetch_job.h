#pragma once
// Runs DatasetDownloader::fetch() on a WorkerJob's worker thread for the GUI: progress, stage
// changes and the result arrive as queued signals on the thread that owns the job, so the GUI
// never waits for the network or the extraction.
#include <QString>
#include <QStringList>

#include "app/gui/bridge/worker_job.h"
#include "engine/download/dataset_catalog.h"

namespace ascope {

class DatasetFetchJob : public WorkerJob {
  Q_OBJECT

 public:
  explicit DatasetFetchJob(QObject* parent = nullptr);

  /// Starts fetching `entry` into `data_dir`; false (and nothing started) while a fetch runs.
  bool start(const CatalogEntry& entry, const QString& data_dir);

 Q_SIGNALS:
  /// `total` is 0 when the server sends no length and the catalog has no size.
  void progress(qint64 done, qint64 total, double bytes_per_s);
  /// "Downloading", "Verifying the checksum" or "Extracting".
  void stageChanged(const QString& stage);
  /// `ok`: `folder` holds the dataset; otherwise `error` says why (one line).
  void finished(bool ok, const QString& folder, const QString& error, const QStringList& warnings);
};

}  // namespace ascope
