#include "app/gui/window/jobs/model_fetch_job.h"

#include "engine/download/models/model_downloader.h"
#include "engine/download/models/model_id.h"

namespace ascope {

ModelFetchJob::ModelFetchJob(QString endpoint, QObject* parent)
    : WorkerJob(parent), endpoint_(std::move(endpoint)) {}

bool ModelFetchJob::start(const QString& id, const QString& folder) {
  const std::string id_text = id.toStdString();
  const std::string dir = folder.toStdString();
  const std::string endpoint = endpoint_.toStdString();
  return launch([id_text, dir, endpoint](const Post& post, const std::atomic<bool>* cancel) {
    ModelDownloadOptions options;
    options.endpoint = endpoint;
    options.on_file = [&post](const std::string& file, std::int64_t size) {
      const QString name = QString::fromStdString(file);
      post([name, size](WorkerJob& job) {
        Q_EMIT static_cast<ModelFetchJob&>(job).fileStarted(name, size);
      });
    };
    Expected<DownloadedModel> result = Error{""};
    const Expected<ModelId> model = ModelId::parse(id_text);
    if (!model.ok()) {
      result = Error{model.error()};
    } else {
      result = ModelDownloader(options).fetch(
          *model, dir,
          [&post](std::int64_t done, std::int64_t total, double rate) {
            post([done, total, rate](WorkerJob& job) {
              Q_EMIT static_cast<ModelFetchJob&>(job).progress(done, total, rate);
            });
          },
          cancel);
    }
    QStringList warnings;
    QString folder_done, model_type, error;
    if (result.ok()) {
      folder_done = QString::fromStdString(result->folder);
      model_type = QString::fromStdString(result->model_type);
      for (const std::string& warning : result->warnings)
        warnings << QString::fromStdString(warning);
    } else {
      error = QString::fromStdString(result.error());
    }
    const bool ok = result.ok();
    post.finish([ok, folder_done, model_type, error, warnings](WorkerJob& job) {
      Q_EMIT static_cast<ModelFetchJob&>(job).finished(ok, folder_done, model_type, error,
                                                       warnings);
    });
  });
}

}  // namespace ascope
