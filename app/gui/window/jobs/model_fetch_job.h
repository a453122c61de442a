#pragma once
// Runs ModelDownloader::fetch() on a WorkerJob's worker thread for the GUI, as DatasetFetchJob
// does for datasets: which file is on its way, progress and the result arrive as queued signals on
// the thread that owns the job.
#include <QString>
#include <QStringList>

#include "app/gui/bridge/worker_job.h"

namespace ascope {

class ModelFetchJob : public WorkerJob {
  Q_OBJECT

 public:
  /// `endpoint`: the hub or a mirror; empty for $ATTENTIONSCOPE_HF_ENDPOINT, else the hub.
  explicit ModelFetchJob(QString endpoint = {}, QObject* parent = nullptr);

  /// Starts fetching model `id` (already checked by ModelId::parse) into `folder`; false (and
  /// nothing started) while a fetch runs. A cancelled download stays in <folder>.part for the
  /// next start() to resume.
  bool start(const QString& id, const QString& folder);

 Q_SIGNALS:
  /// A file's transfer begins; `size` is -1 when unknown.
  void fileStarted(const QString& file, qint64 size);
  /// Of the current file; `total` is 0 or less when the server sends no length.
  void progress(qint64 done, qint64 total, double bytes_per_s);
  /// `ok`: `folder` holds the model (`model_type` "bert", "vit", …); otherwise `error` says why.
  void finished(bool ok, const QString& folder, const QString& model_type, const QString& error,
                const QStringList& warnings);

 private:
  QString endpoint_;
};

}  // namespace ascope
