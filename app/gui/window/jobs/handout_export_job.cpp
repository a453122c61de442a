#include "app/gui/window/jobs/handout_export_job.h"

#include "engine/handout/handout_writer.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope {

HandoutExportJob::HandoutExportJob(QObject* parent) : WorkerJob(parent) {}

bool HandoutExportJob::start(const HandoutExportRequest& request) {
  return launch([request](const Post& post, const std::atomic<bool>* cancel) {
    HandoutOptions options;
    options.max_mb = request.max_mb;
    options.theme = request.theme.toStdString();
    options.task_of = [](const std::string& id) { return TaskRegistry::instance().find(id); };
    options.check_settings = checkSettingsOfKnownTask;
    const Expected<HandoutSummary> result =
        writeHandout(request.run_dir.toStdString(), request.path.toStdString(), options,
                     [&post, cancel](int done, int total) {
                       post([done, total](WorkerJob& job) {
                         Q_EMIT static_cast<HandoutExportJob&>(job).progress(done, total);
                       });
                       return !cancel->load();
                     });
    const bool cancelled = !result.ok() && cancel->load();
    QString summary, error;
    if (result.ok()) {
      summary = QObject::tr("wrote %1: %2 (limit %3 MB), %4 of %5 snapshots")
                    .arg(request.path, QString::fromStdString(megabytesText(result->bytes)))
                    .arg(request.max_mb)
                    .arg(result->snapshots_kept)
                    .arg(result->snapshots_stored);
      if (!result->left_out.empty()) {
        QStringList left_out;
        for (const std::string& s : result->left_out) left_out << QString::fromStdString(s);
        summary += QObject::tr("; left out to fit: %1").arg(left_out.join(QStringLiteral("; ")));
      }
    } else if (!cancelled) {
      error = QString::fromStdString(result.error());
    }
    post.finish([ok = result.ok(), cancelled, summary, error](WorkerJob& job) {
      Q_EMIT static_cast<HandoutExportJob&>(job).finished(ok, cancelled, summary, error);
    });
  });
}

}  // namespace ascope
