#include "app/gui/window/export/export_actions.h"

#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonObject>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>
#include <regex>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/encoding/encoding_presenter.h"
#include "engine/core/atomic_file.h"
#include "engine/core/dead_process_leftovers.h"
#include "engine/core/regular_file.h"
#include "widgets/attention/attention_figure_bundle.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/encoding/positional_encoding_figure_bundle.h"
#include "widgets/encoding/positional_encoding_panel.h"

namespace ascope {
namespace {

/// A finished future of `value` (makeReadyFuture before Qt 6.6, which deprecates it).
QFuture<ExportResult> readyFuture(ExportResult value) {
#if QT_VERSION >= QT_VERSION_CHECK(6, 6, 0)
  return QtFuture::makeReadyValueFuture(std::move(value));
#else
  return QtFuture::makeReadyFuture(std::move(value));
#endif
}

/// metrics.csv of a run of millions of steps is tens of megabytes; more is not a metrics file.
constexpr std::size_t kMaxCopiedFileBytes = std::size_t{1} << 30;

QString lastFolder() {
  return QSettings().value(QStringLiteral("export/folder"), QDir::homePath()).toString();
}

void rememberFolder(const QString& path) {
  QSettings().setValue(QStringLiteral("export/folder"), path);
}

}  // namespace

ExportActions::ExportActions(AttentionPresenter* attention, EncodingPresenter* encoding,
                             CurvesPresenter* curves, QList<const RunNewsReader*> docks,
                             const CurrentRun* run, QWidget* dialog_parent)
    : QObject(dialog_parent),
      attention_(attention),
      encoding_(encoding),
      curves_(curves),
      docks_(std::move(docks)),
      run_(run),
      parent_(dialog_parent) {
  removeStaleStagingFolders();
}

int ExportActions::removeStaleStagingFolders() {
  static const std::regex kStaging(std::string(kStagingPrefix) + "-([0-9]+)-[A-Za-z0-9]+");
  return static_cast<int>(
      removeLeftoversOfDeadProcesses(QFile::encodeName(QDir::tempPath()).toStdString(), kStaging)
          .size());
}

FigureContext ExportActions::figureContext() const {
  FigureContext context;
  if (run_ != nullptr) {
    context.run = QFileInfo(run_->folder()).fileName();
    if (run_->task() != nullptr) context.task = QString::fromStdString(run_->task()->title);
  }
  context.step = attention_->panel()->snapshot().step;
  if (attention_->probeSelector()->count() > 0)
    context.probe_sample = attention_->probeSelector()->currentText();
  return context;
}

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

/// Removes what an export killed mid-copy (kill -9) left beside `target`: its atomic-write temp
/// files "<file>.tmp.<pid>.<n>" whose process is no longer alive. Only temp files of the files an
/// export writes are looked at, never anything else of the user's folder.
void removeStaleCopiesOf(const QString& target) {
  const QFileInfo info(target);
  const QDir dir = info.absoluteDir();
  const QString prefix = info.fileName() + QStringLiteral(".tmp.");
  for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden)) {
    if (!name.startsWith(prefix)) continue;
    const QStringList parts = name.mid(prefix.size()).split(QLatin1Char('.'));
    bool pid_ok = false, count_ok = false;
    const long pid = parts.size() == 2 ? parts[0].toLong(&pid_ok) : 0;
    if (parts.size() == 2) parts[1].toLong(&count_ok);
    if (pid_ok && count_ok && !processAlive(pid)) QFile::remove(dir.filePath(name));
  }
}

/// Every file the panels rendered into `stage`, copied into `folder` with the same subfolders
/// (worker thread).
ExportResult copyStaged(const QString& stage, const QString& folder) {
  const QDir from(stage), to(folder);
  if (!QDir().mkpath(folder))
    return ExportResult::failure(QObject::tr("cannot create %1").arg(folder));
  QDirIterator it(stage, QDir::Files, QDirIterator::Subdirectories);
  QStringList files;
  while (it.hasNext()) files << from.relativeFilePath(it.next());
  files.sort();
  for (const QString& file : files) {
    const QString target = to.filePath(file);
    if (!QDir().mkpath(QFileInfo(target).absolutePath()))
      return ExportResult::failure(
          QObject::tr("cannot create %1").arg(QFileInfo(target).absolutePath()));
    removeStaleCopiesOf(target);
    const ExportResult result = copyRegularFile(from.filePath(file), target);
    if (!result.ok()) return result;
  }
  return ExportResult::success();
}

/// Runs `render(stage_folder)` here (panels render on the GUI thread) into a private temporary
/// folder, then copies what it wrote to `folder` on a worker.
QFuture<ExportResult> renderThenCopy(const std::function<ExportResult(const QString&)>& render,
                                     const QString& folder) {
  // Named with the process id, so that a later start removes it if this process is killed
  // meanwhile.
  auto stage = std::make_shared<QTemporaryDir>(
      QDir::temp().filePath(QStringLiteral("%1-%2-XXXXXX")
                                .arg(QLatin1String(ExportActions::kStagingPrefix))
                                .arg(QCoreApplication::applicationPid())));
  if (!stage->isValid()) {
    return readyFuture(ExportResult::failure(
        QObject::tr("cannot create a temporary folder: %1").arg(stage->errorString())));
  }
  const ExportResult rendered = render(stage->path());
  if (!rendered.ok()) return readyFuture(rendered);
  return QtConcurrent::run([stage, folder] { return copyStaged(stage->path(), folder); });
}

}  // namespace

QFuture<ExportResult> ExportActions::exportAllAsync(const QString& folder, const ExportSize& size,
                                                    const BetweenFigures& between) const {
  // The attention and the encoding are written whole by their bundles below, not as the one
  // view shown; every other dock as what it exports.
  AttentionHeadGridPanel* attention = attention_->panel();
  PositionalEncodingPanel* encoding = encoding_->panel();
  QList<Exportable*> panels;
  for (const RunNewsReader* dock : docks_) panels += dock->exportables();
  const FigureContext context = figureContext();
  return renderThenCopy(
      [panels, size, attention, encoding, context, between](const QString& stage) {
        const QList<ImageFormat> formats{ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf};
        // Titled with run and step on the slide; the window's own panels show no title.
        for (Exportable* panel : panels)
          panel->setExportTitle(context.title(panel->exportBaseName()));
        ExportResult exported = ExportResult::success();
        for (ImageFormat format : formats) {
          for (Exportable* panel : panels) {
            if (between && !between()) {
              exported = ExportResult::cancel();
              break;
            }
            exported = PlotExporter::exportToFolder({panel}, stage, format, size);
            if (!exported.ok()) break;
          }
          if (!exported.ok()) break;
        }
        for (Exportable* panel : panels) panel->setExportTitle({});
        if (!exported.ok()) return exported;
        for (Exportable* panel : panels) {
          // The curves and the sample span the run, so their titles stay; the sidecar still
          // says which run, step and probe sample the figure was taken at.
          const QString name = panel->exportBaseName();
          QJsonObject sidecar = context.toJson();
          sidecar.insert(QStringLiteral("figure"), name);
          QJsonArray files;
          for (ImageFormat format : formats)
            files.append(name + '.' + PlotExporter::suffix(format));
          files.append(name + QStringLiteral(".csv"));
          sidecar.insert(QStringLiteral("files"), files);
          sidecar.insert(QStringLiteral("size"), QJsonArray{size.width, size.height, size.scale});
          const QString path = QDir(stage).filePath(name + QStringLiteral(".json"));
          if (ExportResult r = PlotExporter::writeJson(path, sidecar); !r.ok()) return r;
        }
        if (attention->groupCount() > 0) {
          AttentionFigureBundle bundle(*attention, context);
          bundle.setBetweenFigures(between);
          const QDir dir(stage);
          if (ExportResult r =
                  bundle.write(dir.filePath(QStringLiteral("attention")), formats, size);
              !r.ok())
            return r;
          if (ExportResult r =
                  attention->exportCsv(dir.filePath(AttentionFigureBundle::csvName(context)));
              !r.ok())
            return r;
        }
        PositionalEncodingFigureBundle encodings(*encoding, context);
        encodings.setBetweenFigures(between);
        return encodings.write(QDir(stage).filePath(QStringLiteral("positional_encoding")), formats,
                               size);
      },
      folder);
}

QFuture<ExportResult> ExportActions::exportMetricsAsync(const QString& path,
                                                        const QString& run_dir) const {
  const QFileInfo target(path);
  const QString name = target.fileName();
  if (run_dir.isEmpty()) {
    MetricCurvePanel* loss = curves_->loss();
    return renderThenCopy(
        [loss, name](const QString& stage) { return loss->exportCsv(QDir(stage).filePath(name)); },
        target.absolutePath());
  }
  // Nothing of the run folder is touched here: it may be where the trouble is.
  const QString source = QDir(run_dir).filePath(QStringLiteral("metrics.csv"));
  return QtConcurrent::run([source, path] { return copyRegularFile(source, path); });
}

QFuture<ExportResult> ExportActions::exportAttentionAsync(const QString& path) const {
  if (attention_->panel()->groupCount() == 0) {
    return readyFuture(ExportResult::failure(tr("no attention to export yet")));
  }
  AttentionHeadGridPanel* panel = attention_->panel();
  const QFileInfo target(path);
  const QString name = target.fileName();
  return renderThenCopy(
      [panel, name](const QString& stage) { return panel->exportCsv(QDir(stage).filePath(name)); },
      target.absolutePath());
}

QStringList ExportActions::leftOut() const {
  QStringList out;
  if (attention_->panel()->groupCount() == 0) {
    out << tr("the attention (no snapshot is shown: the run has none that reads)");
  }
  if (encoding_->panel()->encoding().matrix.rows == 0) {
    out << tr("the positional encoding (none is shown)");
  }
  return out;
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
  const QStringList left_out = leftOut();
  const QFuture<ExportResult> result = exportAllWithProgress(folder);
  reportLater(result, left_out.isEmpty()
                          ? tr("Exported every panel, every layer's attention and every "
                               "positional-encoding view (PNG, SVG, PDF, CSV, JSON) to %1")
                                .arg(folder)
                          : tr("Exported the panels to %1; left out: %2")
                                .arg(folder, left_out.join(QStringLiteral("; "))));
}

QFuture<ExportResult> ExportActions::exportAllWithProgress(const QString& folder,
                                                           const ExportSize& size) {
  // Window-modal: the window repaints and the run goes on, but nothing else is pressed in it
  // while its panels are being drawn into the figures.
  QProgressDialog progress(tr("Drawing the figures…"), tr("Cancel"), 0, 0, parent_);
  // Cancel by click or Esc only: an Enter meant for the folder dialog just closed cancelled it.
  auto* cancel = new QPushButton(tr("Cancel"), &progress);
  cancel->setAutoDefault(false);
  cancel->setDefault(false);
  progress.setCancelButton(cancel);
  progress.setWindowTitle(tr("Export all panels"));
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(0);
  progress.show();
  int figures = 0;
  const QFuture<ExportResult> result = exportAllAsync(folder, size, [&] {
    progress.setLabelText(tr("Drawing the figures… %1 done").arg(figures++));
    QCoreApplication::processEvents();
    return !progress.wasCanceled();
  });
  return result;
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
  const QString name = AttentionFigureBundle::csvName(figureContext());
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
  } else if (result.cancelled) {
    Q_EMIT message(tr("Export cancelled: nothing was written"));
  } else {
    QMessageBox::warning(parent_, tr("Export failed"), result.error);
  }
}

}  // namespace ascope
