#include "widgets/common/export_menu.h"

#include "widgets/common/export_dialog.h"
#include "widgets/common/exportable.h"
#include "widgets/common/plot_exporter.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>

namespace ascope {
namespace {

// Remembered for the session so exporting several panels in a row lands in one folder with one
// size. GUI-thread only.
QString& lastFolder() {
  static QString folder = QDir::homePath();
  return folder;
}

ExportDialog::Choice& lastChoice() {
  static ExportDialog::Choice choice;
  return choice;
}

QString withSuffix(QString path, const QString& suffix) {
  if (QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0)
    path += QLatin1Char('.') + suffix;
  return path;
}

}  // namespace

void ExportMenu::addActions(QMenu* menu, Exportable* target, QWidget* dialog_parent) {
  QPointer<QWidget> parent(dialog_parent);
  QAction* image = menu->addAction(QObject::tr("Export as PNG/PDF/SVG…"));
  QObject::connect(image, &QAction::triggered, dialog_parent, [target, parent] {
    if (parent) exportImageInteractively(target, parent);
  });
  QAction* csv = menu->addAction(QObject::tr("Export data as CSV…"));
  QObject::connect(csv, &QAction::triggered, dialog_parent, [target, parent] {
    if (parent) exportCsvInteractively(target, parent);
  });
}

void ExportMenu::exportImageInteractively(Exportable* target, QWidget* dialog_parent) {
  const std::optional<ExportDialog::Choice> choice = ExportDialog::ask(dialog_parent, lastChoice());
  if (!choice) return;
  lastChoice() = *choice;
  const QString suffix = PlotExporter::suffix(choice->format);
  const QString filter = QObject::tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix);
  QString path = QFileDialog::getSaveFileName(
      dialog_parent, QObject::tr("Export figure"),
      QDir(lastFolder()).filePath(target->exportBaseName() + QLatin1Char('.') + suffix), filter);
  if (path.isEmpty()) return;
  path = withSuffix(path, suffix);
  lastFolder() = QFileInfo(path).absolutePath();
  const ExportResult result = target->exportImage(path, choice->format, choice->size);
  if (!result.ok()) QMessageBox::warning(dialog_parent, QObject::tr("Export failed"), result.error);
}

void ExportMenu::exportCsvInteractively(const Exportable* target, QWidget* dialog_parent) {
  QString path = QFileDialog::getSaveFileName(
      dialog_parent, QObject::tr("Export data"),
      QDir(lastFolder()).filePath(target->exportBaseName() + QStringLiteral(".csv")),
      QObject::tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  path = withSuffix(path, QStringLiteral("csv"));
  lastFolder() = QFileInfo(path).absolutePath();
  const ExportResult result = target->exportCsv(path);
  if (!result.ok()) QMessageBox::warning(dialog_parent, QObject::tr("Export failed"), result.error);
}

}  // namespace ascope
