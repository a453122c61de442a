#include "app/gui/window/dataset_fetch_job.h"

#include <QMetaObject>
#include <QPointer>

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

DatasetFetchJob::DatasetFetchJob(QObject* parent) : QObject(parent) {}

DatasetFetchJob::~DatasetFetchJob() {
  cancel();
  join();
}

void DatasetFetchJob::join() {
  if (worker_.joinable()) worker_.join();
}

void DatasetFetchJob::cancel() {
  if (cancel_) cancel_->store(true);
}

bool DatasetFetchJob::start(const CatalogEntry& entry, const QString& data_dir) {
  if (running_) return false;
  join();  // the previous worker has posted its result already; reap it
  running_ = true;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
  // The worker only posts to this object through a QPointer: once the job is gone (its
  // destructor cancels and joins first), nothing is delivered.
  const QPointer<DatasetFetchJob> self(this);
  const std::string dir = data_dir.toStdString();
  worker_ = std::thread([self, cancel, entry, dir] {
    auto post = [self](auto&& call) {
      QMetaObject::invokeMethod(
          self.data(),
          [self, call = std::forward<decltype(call)>(call)]() mutable {
            if (self) call(self.data());
          },
          Qt::QueuedConnection);
    };
    DownloadOptions options;
    options.on_stage = [&post](FetchStage stage) {
      const QString text = stageText(stage);
      post([text](DatasetFetchJob* job) { Q_EMIT job->stageChanged(text); });
    };
    const DatasetDownloader downloader(options);
    const Expected<FetchedDataset> result = downloader.fetch(
        entry, dir,
        [&post](std::int64_t done, std::int64_t total, double rate) {
          post([done, total, rate](DatasetFetchJob* job) {
            Q_EMIT job->progress(done, total, rate);
          });
        },
        cancel.get());
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
    post([ok, folder, error, warnings](DatasetFetchJob* job) {
      job->running_ = false;
      Q_EMIT job->finished(ok, folder, error, warnings);
    });
  });
  return true;
}

}  // namespace ascope
