#include "app/gui/window/jobs/dataset_fetch_job.h"

#include "engine/download/dataset_downloader.h"

namespace ascope {
namespace {

QString stageText(FetchStage stage) {
  switch (stage) {
    case FetchStage::kDownloading:
      return QObject::tr("Downloading");
    case FetchStage::kVerifying:
      return QObject::tr("Verifying the checksum");
    case FetchStage::kExtracting:
      return QObject::tr("Extracting");
  }
  return {};
}

}  // namespace

DatasetFetchJob::DatasetFetchJob(QObject* parent) : WorkerJob(parent) {}

bool DatasetFetchJob::start(const CatalogEntry& entry, const QString& data_dir) {
  const std::string dir = data_dir.toStdString();
  return launch([entry, dir](const Post& post, const std::atomic<bool>* cancel) {
    DownloadOptions options;
    options.on_stage = [&post](FetchStage stage) {
      const QString text = stageText(stage);
      post(
          [text](WorkerJob& job) { Q_EMIT static_cast<DatasetFetchJob&>(job).stageChanged(text); });
    };
    const DatasetDownloader downloader(options);
    const Expected<FetchedDataset> result = downloader.fetch(
        entry, dir,
        [&post](std::int64_t done, std::int64_t total, double rate) {
          post([done, total, rate](WorkerJob& job) {
            Q_EMIT static_cast<DatasetFetchJob&>(job).progress(done, total, rate);
          });
        },
        cancel);
    QStringList warnings;
    QString folder;
    QString error;
    if (result.ok()) {
      folder = QString::fromStdString(result->folder);
      for (const std::string& warning : result->warnings) {
        warnings << QString::fromStdString(warning);
      }
    } else {
      error = QString::fromStdString(result.error());
    }
    const bool ok = result.ok();
    post.finish([ok, folder, error, warnings](WorkerJob& job) {
      Q_EMIT static_cast<DatasetFetchJob&>(job).finished(ok, folder, error, warnings);
    });
  });
}

}  // namespace ascope
