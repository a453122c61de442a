#include "app/gui/window/export_actions.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

#include "app/gui/views/attention_timeline_view.h"
#include "engine/data/regular_file.h"
#include "widgets/attention_head_grid_panel.h"
#include "widgets/metric_curve_panel.h"
#include "widgets/plot_exporter.h"

namespace ascope {
namespace {

QString lastFolder() {
  return QSettings().value(QStringLiteral("export/folder"), QDir::homePath()).toString();
}

void rememberFolder(const QString& path) {
  QSettings().setValue(QStringLiteral("export/folder"), path);
}

}  // namespace

ExportActions::ExportActions(const Panels& panels, QWidget* dialog_parent)
    : QObject(dialog_parent), panels_(panels), parent_(dialog_parent) {}

ExportResult ExportActions::exportAll(const QString& folder, const ExportSize& size) const {
  if (!QDir().mkpath(folder)) return ExportResult::failure(tr("cannot create %1").arg(folder));
  for (ImageFormat format : {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf}) {
    const ExportResult result =
        PlotExporter::exportToFolder(panels_.exportables(), folder, format, size);
    if (!result.ok()) return result;
  }
  return ExportResult::success();
}

ExportResult ExportActions::exportMetrics(const QString& path, const QString& run_dir) const {
  const QString source = QDir(run_dir).filePath(QStringLiteral("metrics.csv"));
  if (run_dir.isEmpty() || !QFile::exists(source)) return panels_.loss->exportCsv(path);
  // A FIFO in place of metrics.csv would block the copy (and the window) forever.
  if (Status s = requireRegularFile(source.toStdString()); !s.ok()) {
    return ExportResult::failure(QString::fromStdString(s.error()));
  }
  if (QFile::exists(path) && !QFile::remove(path)) {
    return ExportResult::failure(tr("cannot replace %1").arg(path));
  }
  if (!QFile::copy(source, path)) {
    return ExportResult::failure(tr("cannot copy %1 to %2").arg(source, path));
  }
  return ExportResult::success();
}

ExportResult ExportActions::exportAttention(const QString& path) const {
  if (panels_.attention->panel()->groupCount() == 0) {
    return ExportResult::failure(tr("no attention to export yet"));
  }
  return panels_.attention->panel()->exportCsv(path);
}

void ExportActions::exportAllInteractively() {
  const QString folder =
      QFileDialog::getExistingDirectory(parent_, tr("Export all panels to folder"), lastFolder());
  if (folder.isEmpty()) return;
  rememberFolder(folder);
  QApplication::setOverrideCursor(Qt::WaitCursor);
  const ExportResult result = exportAll(folder);
  QApplication::restoreOverrideCursor();
  report(result, tr("Exported %1 panels (PNG, SVG, PDF, CSV) to %2")
                     .arg(panels_.exportables().size())
                     .arg(folder));
}

void ExportActions::exportMetricsInteractively(const QString& run_dir) {
  const QString path = QFileDialog::getSaveFileName(
      parent_, tr("Export metrics"), QDir(lastFolder()).filePath(QStringLiteral("metrics.csv")),
      tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  rememberFolder(QFileInfo(path).absolutePath());
  report(exportMetrics(path, run_dir), tr("Metrics written to %1").arg(path));
}

void ExportActions::exportAttentionInteractively() {
  const QString name = panels_.attention->panel()->exportBaseName() + QStringLiteral(".csv");
  const QString path =
      QFileDialog::getSaveFileName(parent_, tr("Export attention matrices"),
                                   QDir(lastFolder()).filePath(name), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  rememberFolder(QFileInfo(path).absolutePath());
  report(exportAttention(path), tr("Attention weights written to %1").arg(path));
}

void ExportActions::report(const ExportResult& result, const QString& done) {
  if (result.ok()) {
    Q_EMIT message(done);
  } else {
    QMessageBox::warning(parent_, tr("Export failed"), result.error);
  }
}

}  // namespace ascope
