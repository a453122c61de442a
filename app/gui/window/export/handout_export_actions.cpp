#include "app/gui/window/export/handout_export_actions.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QWidget>

#include "app/gui/bridge/current_run.h"
#include "app/gui/window/dialogs/handout_export_dialog.h"
#include "engine/handout/handout_writer.h"

namespace ascope {
namespace {

/// The folder File → Export… remembers, shared by every export of the window.
constexpr char kHandoutFolderKey[] = "export/folder";
constexpr char kMaxMbKey[] = "export/handoutMaxMb";

}  // namespace

HandoutExportActions::HandoutExportActions(const CurrentRun* run, QWidget* dialog_parent)
    : QObject(dialog_parent),
      run_(run),
      parent_(dialog_parent),
      action_(new QAction(tr("Export for &students…"), this)),
      job_(new HandoutExportJob(this)) {
  action_->setObjectName(QStringLiteral("exportHandout"));
  action_->setToolTip(
      tr("The run as one web page that students open offline: curves, timeline, every head, "
         "statistics and settings"));
  connect(action_, &QAction::triggered, this, &HandoutExportActions::exportInteractively);
  connect(job_, &HandoutExportJob::progress, this, [this](int done, int total) {
    if (progress_ == nullptr) return;
    progress_->setMaximum(total);
    progress_->setValue(done);
  });
  connect(job_, &HandoutExportJob::finished, this, &HandoutExportActions::onFinished);
}

QString HandoutExportActions::windowTheme() const {
  const QPalette palette = parent_->palette();
  const QColor base = palette.color(QPalette::Base);
  if (base == QColor(Qt::black) && palette.color(QPalette::Text) == QColor(Qt::white)) {
    return QStringLiteral("contrast");
  }
  return base.lightnessF() < 0.5 ? QStringLiteral("dark") : QStringLiteral("light");
}

void HandoutExportActions::exportInteractively() {
  if (job_->isRunning()) {
    Q_EMIT message(tr("A handout is being written already"));
    return;
  }
  if (run_->folder().isEmpty()) {
    QMessageBox::information(parent_, tr("Export for students"),
                             tr("Open or train a run first: the handout is the shown run's "
                                "folder as one web page."));
    return;
  }
  const QString folder =
      QSettings().value(QLatin1String(kHandoutFolderKey), QDir::homePath()).toString();
  const QString name = QFileInfo(run_->folder()).fileName() + QStringLiteral("_handout.html");
  HandoutExportDialog dialog(
      QDir(folder).filePath(name),
      QSettings().value(QLatin1String(kMaxMbKey), kDefaultHandoutMaxMb).toDouble(), parent_);
  if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty()) return;
  QSettings().setValue(QLatin1String(kHandoutFolderKey), QFileInfo(dialog.path()).absolutePath());
  QSettings().setValue(QLatin1String(kMaxMbKey), dialog.maxMb());
  startWithProgress(dialog.path(), dialog.maxMb());
}

bool HandoutExportActions::startWithProgress(const QString& path, double max_mb) {
  if (job_->isRunning() || run_->folder().isEmpty()) return false;
  HandoutExportRequest request;
  request.run_dir = run_->folder();
  request.path = path;
  request.max_mb = max_mb;
  request.theme = windowTheme();
  progress_ = new QProgressDialog(tr("Writing %1…").arg(QFileInfo(path).fileName()), tr("Cancel"),
                                  0, 0, parent_);
  progress_->setObjectName(QStringLiteral("handoutProgress"));
  progress_->setWindowTitle(tr("Export for students"));
  progress_->setMinimumDuration(300);
  progress_->setAutoClose(false);
  progress_->setAutoReset(false);
  connect(progress_, &QProgressDialog::canceled, job_, &HandoutExportJob::cancel);
  return job_->start(request);
}

void HandoutExportActions::onFinished(bool ok, bool cancelled, const QString& summary,
                                      const QString& error) {
  if (progress_ != nullptr) {
    progress_->deleteLater();
    progress_ = nullptr;
  }
  if (ok) {
    Q_EMIT message(summary);
  } else if (cancelled) {
    Q_EMIT message(tr("Handout cancelled; nothing was written"));
  } else {
    QMessageBox::warning(parent_, tr("Export for students"), error);
  }
  Q_EMIT exported(ok);
}

}  // namespace ascope
