#pragma once
// Runs DatasetDownloader::fetch() on a worker thread for the GUI: progress, stage changes and the
// result arrive as queued signals on the thread that owns the job, so the GUI never waits for the
// network or the extraction. Destroying a running job cancels it and joins the worker (the
// downloader checks the flag between chunks, so that takes milliseconds).
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <thread>

#include "engine/download/dataset_catalog.h"

namespace ascope {

class DatasetFetchJob : public QObject {
  Q_OBJECT

 public:
  explicit DatasetFetchJob(QObject* parent = nullptr);
  ~DatasetFetchJob() override;

  /// Starts fetching `entry` into `data_dir`; false (and nothing started) while a fetch runs.
  bool start(const CatalogEntry& entry, const QString& data_dir);
  /// Asks the running fetch to stop; finished() follows with a "cancelled" error. The partial
  /// download stays and the next start() resumes it.
  void cancel();
  bool isRunning() const { return running_; }

 Q_SIGNALS:
  /// `total` is 0 when the server sends no length and the catalog has no size.
  void progress(qint64 done, qint64 total, double bytes_per_s);
  /// "Downloading", "Verifying the checksum" or "Extracting".
  void stageChanged(const QString& stage);
  /// `ok`: `folder` holds the dataset; otherwise `error` says why (one line).
  void finished(bool ok, const QString& folder, const QString& error, const QStringList& warnings);

 private:
  void join();

  std::shared_ptr<std::atomic<bool>> cancel_;
  std::thread worker_;
  bool running_ = false;
};

}  // namespace ascope
