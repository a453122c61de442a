#include "app/gui/window/export_actions.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>

#include "app/gui/views/attention_timeline_view.h"
#include "engine/core/atomic_file.h"
#include "engine/data/regular_file.h"
#include "widgets/attention_head_grid_panel.h"
#include "widgets/metric_curve_panel.h"
#include "widgets/plot_exporter.h"

namespace ascope {
namespace {

/// metrics.csv of a run of millions of steps is tens of megabytes; more is not a metrics file.
constexpr std::size_t kMaxCopiedFileBytes = std::size_t{1} << 30;

QString lastFolder() {
  return QSettings().value(QStringLiteral("export/folder"), QDir::homePath()).toString();
}

void rememberFolder(const QString& path) {
  QSettings().setValue(QStringLiteral("export/folder"), path);
}

}  // namespace

ExportActions::ExportActions(const Panels& panels, QWidget* dialog_parent)
    : QObject(dialog_parent), panels_(panels), parent_(dialog_parent) {}

namespace {

/// Copies `source`, a regular file, to `target` atomically (worker thread). A FIFO in place of
/// the source would block the read forever; it is refused by name instead.
ExportResult copyRegularFile(const QString& source, const QString& target) {
  Expected<std::string> bytes = readRegularFile(source.toStdString(), kMaxCopiedFileBytes);
  if (!bytes.ok()) return ExportResult::failure(QString::fromStdString(bytes.error()));
  if (Status s = writeFileAtomically(target.toStdString(), *bytes); !s.ok()) {
    return ExportResult::failure(QString::fromStdString(s.error()));
  }
  return ExportResult::success();
}

/// Every file the panels rendered into `stage`, copied into `folder` (worker thread).
ExportResult copyStaged(const QString& stage, const QString& folder) {
  if (!QDir().mkpath(folder))
    return ExportResult::failure(QObject::tr("cannot create %1").arg(folder));
  for (const QFileInfo& file : QDir(stage).entryInfoList(QDir::Files, QDir::Name)) {
    const ExportResult result =
        copyRegularFile(file.absoluteFilePath(), QDir(folder).filePath(file.fileName()));
    if (!result.ok()) return result;
  }
  return ExportResult::success();
}

/// Runs `render(stage_folder)` here (panels render on the GUI thread) into a private temporary
/// folder, then copies what it wrote to `folder` on a worker.
QFuture<ExportResult> renderThenCopy(const std::function<ExportResult(const QString&)>& render,
                                     const QString& folder) {
  auto stage = std::make_shared<QTemporaryDir>();
  if (!stage->isValid()) {
    return QtFuture::makeReadyFuture(ExportResult::failure(
        QObject::tr("cannot create a temporary folder: %1").arg(stage->errorString())));
  }
  const ExportResult rendered = render(stage->path());
  if (!rendered.ok()) return QtFuture::makeReadyFuture(rendered);
  return QtConcurrent::run([stage, folder] { return copyStaged(stage->path(), folder); });
}

}  // namespace

QFuture<ExportResult> ExportActions::exportAllAsync(const QString& folder,
                                                    const ExportSize& size) const {
  const QList<Exportable*> panels = panels_.exportables();
  return renderThenCopy(
      [panels, size](const QString& stage) {
        for (ImageFormat format : {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf}) {
          const ExportResult result = PlotExporter::exportToFolder(panels, stage, format, size);
          if (!result.ok()) return result;
        }
        return ExportResult::success();
      },
      folder);
}

QFuture<ExportResult> ExportActions::exportMetricsAsync(const QString& path,
                                                        const QString& run_dir) const {
  const QFileInfo target(path);
  const QString name = target.fileName();
  if (run_dir.isEmpty()) {
    MetricCurvePanel* loss = panels_.loss;
    return renderThenCopy(
        [loss, name](const QString& stage) { return loss->exportCsv(QDir(stage).filePath(name)); },
        target.absolutePath());
  }
  // Nothing of the run folder is touched here: it may be where the trouble is.
  const QString source = QDir(run_dir).filePath(QStringLiteral("metrics.csv"));
  return QtConcurrent::run([source, path] { return copyRegularFile(source, path); });
}

QFuture<ExportResult> ExportActions::exportAttentionAsync(const QString& path) const {
  if (panels_.attention->panel()->groupCount() == 0) {
    return QtFuture::makeReadyFuture(ExportResult::failure(tr("no attention to export yet")));
  }
  AttentionHeadGridPanel* panel = panels_.attention->panel();
  const QFileInfo target(path);
  const QString name = target.fileName();
  return renderThenCopy(
      [panel, name](const QString& stage) { return panel->exportCsv(QDir(stage).filePath(name)); },
      target.absolutePath());
}

ExportResult ExportActions::exportAll(const QString& folder, const ExportSize& size) const {
  return exportAllAsync(folder, size).result();
}

ExportResult ExportActions::exportMetrics(const QString& path, const QString& run_dir) const {
  return exportMetricsAsync(path, run_dir).result();
}

ExportResult ExportActions::exportAttention(const QString& path) const {
  return exportAttentionAsync(path).result();
}

void ExportActions::exportAllInteractively() {
  const QString folder =
      QFileDialog::getExistingDirectory(parent_, tr("Export all panels to folder"), lastFolder());
  if (folder.isEmpty()) return;
  rememberFolder(folder);
  QApplication::setOverrideCursor(Qt::WaitCursor);  // while the panels render
  const QFuture<ExportResult> result = exportAllAsync(folder);
  QApplication::restoreOverrideCursor();
  reportLater(result, tr("Exported %1 panels (PNG, SVG, PDF, CSV) to %2")
                          .arg(panels_.exportables().size())
                          .arg(folder));
}

void ExportActions::exportMetricsInteractively(const QString& run_dir) {
  const QString path = QFileDialog::getSaveFileName(
      parent_, tr("Export metrics"), QDir(lastFolder()).filePath(QStringLiteral("metrics.csv")),
      tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  rememberFolder(QFileInfo(path).absolutePath());
  reportLater(exportMetricsAsync(path, run_dir), tr("Metrics written to %1").arg(path));
}

void ExportActions::exportAttentionInteractively() {
  const QString name = panels_.attention->panel()->exportBaseName() + QStringLiteral(".csv");
  const QString path =
      QFileDialog::getSaveFileName(parent_, tr("Export attention matrices"),
                                   QDir(lastFolder()).filePath(name), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  rememberFolder(QFileInfo(path).absolutePath());
  reportLater(exportAttentionAsync(path), tr("Attention weights written to %1").arg(path));
}

void ExportActions::reportLater(const QFuture<ExportResult>& result, const QString& done) {
  auto* watcher = new QFutureWatcher<ExportResult>(this);
  connect(watcher, &QFutureWatcher<ExportResult>::finished, this, [this, watcher, done] {
    report(watcher->result(), done);
    watcher->deleteLater();
  });
  watcher->setFuture(result);
}

void ExportActions::report(const ExportResult& result, const QString& done) {
  if (result.ok()) {
    Q_EMIT message(done);
  } else {
    QMessageBox::warning(parent_, tr("Export failed"), result.error);
  }
}

}  // namespace ascope
