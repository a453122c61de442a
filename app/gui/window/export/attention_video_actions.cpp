#include "app/gui/window/export/attention_video_actions.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>

#include <cstdio>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/window/export/attention_video_dialog.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/common/figure_context.h"

namespace ascope {
namespace {

/// The folder File → Export… remembers, shared by every export of the window.
constexpr char kVideoFolderKey[] = "export/folder";

void sayVideo(const QString& text) {
  std::fprintf(stdout, "attentionscope: %s\n", qPrintable(text));
  std::fflush(stdout);
}

QString viewName(AttentionFrameView view) {
  switch (view) {
    case AttentionFrameView::Head:
      return QStringLiteral("head");
    case AttentionFrameView::LayerGrid:
      return QStringLiteral("grid");
    case AttentionFrameView::ClsOverlay:
      return QStringLiteral("overlay");
  }
  return QStringLiteral("head");
}

AttentionFrameView viewNamed(const QString& name) {
  if (name == QLatin1String("grid")) return AttentionFrameView::LayerGrid;
  if (name == QLatin1String("overlay")) return AttentionFrameView::ClsOverlay;
  return AttentionFrameView::Head;
}

}  // namespace

AttentionVideoActions::AttentionVideoActions(AttentionPresenter* attention, const CurrentRun* run,
                                             QWidget* dialog_parent)
    : QObject(dialog_parent),
      attention_(attention),
      run_(run),
      parent_(dialog_parent),
      action_(new QAction(tr("Export attention &video…"), this)),
      exporter_(new AttentionVideoExport(this)) {
  action_->setObjectName(QStringLiteral("exportAttentionVideo"));
  action_->setToolTip(
      tr("A head, a layer's heads or the CLS overlay through every stored snapshot of the run, "
         "as GIF or MP4 with the step on each frame"));
  connect(action_, &QAction::triggered, this, &AttentionVideoActions::exportInteractively);
  connect(exporter_, &AttentionVideoExport::progress, this, [this](int done, int total) {
    if (progress_ == nullptr) return;
    progress_->setMaximum(total);  // 0 while the snapshots are read: a busy bar
    progress_->setValue(done);
  });
  connect(exporter_, &AttentionVideoExport::finished, this, &AttentionVideoActions::onFinished);
  // An export of an earlier session that was killed left a hidden partial file where it wrote.
  const QString folder = QSettings().value(QLatin1String(kVideoFolderKey)).toString();
  if (!folder.isEmpty()) AttentionVideoExport::removeStalePartialFiles(folder);
}

AttentionVideoRequest AttentionVideoActions::requestFor(const QString& path,
                                                        AttentionFrameView view, int layer,
                                                        int head, int fps) const {
  const AttentionHeadGridPanel* panel = attention_->panel();
  AttentionVideoRequest request;
  request.path = path;
  request.view = view;
  request.layer = layer;
  request.head = head;
  request.fps = fps;
  if (panel->groupCount() > 0)
    request.group = panel->snapshot().groups[static_cast<std::size_t>(panel->currentGroup())].name;
  request.probe_index = attention_->probeIndex();
  request.scale = panel->colorScale();
  request.aggregates = attention_->aggregateSettings();
  request.run_name = QFileInfo(run_->folder()).fileName();
  request.font = panel->headView()->font();
  request.palette = panel->headView()->palette();
  return request;
}

void AttentionVideoActions::exportInteractively() {
  if (exporter_->isRunning()) {
    Q_EMIT message(tr("An attention video is being exported already"));
    return;
  }
  const AttentionHeadGridPanel* panel = attention_->panel();
  if (run_->folder().isEmpty() || attention_->snapshotCount() == 0 || panel->groupCount() == 0) {
    QMessageBox::information(parent_, tr("Export attention video"),
                             tr("Open or train a run first: the video has one frame per "
                                "attention snapshot stored in the run folder."));
    return;
  }
  AttentionVideoDialog dialog(panel->layerCount(), panel->headCount(),
                              panel->snapshot().image.isValid(), attention_->snapshotCount(),
                              parent_);
  const std::optional<VideoFormat> last_format = videoFormatForPath(last_request_.path);
  dialog.setChoice(AttentionFrameView::Head, panel->currentLayer(), panel->currentHead(),
                   last_format.value_or(VideoFormat::Gif),
                   last_request_.path.isEmpty() ? 4 : last_request_.fps);
  if (dialog.exec() != QDialog::Accepted) return;

  const QString suffix = videoFormatSuffix(dialog.format());
  FigureContext context;
  context.run = QFileInfo(run_->folder()).fileName();
  const QString what =
      dialog.view() == AttentionFrameView::LayerGrid
          ? QStringLiteral("layer%1").arg(dialog.layer())
          : QStringLiteral("layer%1_head%2").arg(dialog.layer()).arg(dialog.head());
  const QString name =
      QStringLiteral("attention_%1_%2_%3.%4")
          .arg(FigureContext::slug(context.run), viewName(dialog.view()), what, suffix);
  const QString folder =
      QSettings().value(QLatin1String(kVideoFolderKey), QDir::homePath()).toString();
  QString path = QFileDialog::getSaveFileName(
      parent_, tr("Export attention video"), QDir(folder).filePath(name),
      dialog.format() == VideoFormat::Gif ? tr("Animated GIF (*.gif)") : tr("MP4 video (*.mp4)"));
  if (path.isEmpty()) return;
  if (!videoFormatForPath(path)) path += QLatin1Char('.') + suffix;
  QSettings().setValue(QLatin1String(kVideoFolderKey), QFileInfo(path).absolutePath());

  last_request_ = requestFor(path, dialog.view(), dialog.layer(), dialog.head(), dialog.fps());
  if (const QString problem = AttentionVideoExport::checkRequest(last_request_);
      !problem.isEmpty()) {
    QMessageBox::warning(parent_, tr("Export attention video"), problem);
    return;
  }
  startWithProgress(last_request_);
}

void AttentionVideoActions::startWithProgress(const AttentionVideoRequest& request) {
  if (exporter_->isRunning()) {
    Q_EMIT message(tr("An attention video is being exported already"));
    return;
  }
  last_request_ = request;
  progress_ =
      new QProgressDialog(tr("Drawing and encoding %1…").arg(QFileInfo(request.path).fileName()),
                          tr("Cancel"), 0, 0, parent_);
  progress_->setObjectName(QStringLiteral("attentionVideoProgress"));
  progress_->setWindowTitle(tr("Export attention video"));
  progress_->setMinimumDuration(300);
  progress_->setAutoClose(false);
  progress_->setAutoReset(false);
  connect(progress_, &QProgressDialog::canceled, exporter_, &AttentionVideoExport::cancel);
  interactive_ = true;
  exporter_->start(run_->folder(), request);
}

QString AttentionVideoActions::summary(const AttentionVideoRequest& request,
                                       const AttentionVideoResult& result) {
  QString text = tr("wrote %1: %2 frames of %3 x %4 at %5 frames/s, %6 KiB, in %7 s")
                     .arg(request.path)
                     .arg(result.frames)
                     .arg(result.size.width())
                     .arg(result.size.height())
                     .arg(result.fps)
                     .arg((result.bytes + 1023) / 1024)
                     .arg(result.seconds, 0, 'f', 1);
  if (result.skipped > 0)
    text += tr(" (%1 of the run's snapshots left out: %2)")
                .arg(result.skipped)
                .arg(result.warnings.value(0));
  return text;
}

void AttentionVideoActions::onFinished(const AttentionVideoResult& result) {
  if (progress_ != nullptr) {
    progress_->deleteLater();
    progress_ = nullptr;
  }
  if (!interactive_) return;
  interactive_ = false;
  if (result.ok()) {
    Q_EMIT message(summary(last_request_, result));
  } else if (result.cancelled) {
    Q_EMIT message(tr("Attention video cancelled; nothing was written"));
  } else {
    QMessageBox::warning(parent_, tr("Export attention video"), result.error);
  }
}

int AttentionVideoActions::exportScripted(const ScriptedVideoRequest& asked) {
  attention_->waitForLoad();
  last_request_ = requestFor(asked.path, viewNamed(asked.view), asked.layer, asked.head, asked.fps);
  const AttentionVideoResult result = exporter_->run(run_->folder(), last_request_);
  for (const QString& warning : result.warnings) sayVideo(tr("video: %1").arg(warning));
  if (result.ok()) {
    sayVideo(summary(last_request_, result));
    return 0;
  }
  std::fprintf(stderr, "attentionscope: --export-video %s: %s\n", qPrintable(asked.path),
               qPrintable(result.error));
  std::fflush(stderr);
  return result.bad_request ? 2 : 1;
}

}  // namespace ascope
