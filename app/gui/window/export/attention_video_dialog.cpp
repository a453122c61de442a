#include "app/gui/window/export/attention_video_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace ascope {

AttentionVideoDialog::AttentionVideoDialog(int layers, int heads, bool has_image, int snapshots,
                                           QWidget* parent)
    : QDialog(parent), snapshots_(snapshots) {
  setWindowTitle(tr("Export attention video"));
  view_box_ = new QComboBox(this);
  view_box_->setObjectName(QStringLiteral("videoView"));
  view_box_->addItem(tr("One head"), static_cast<int>(AttentionFrameView::Head));
  view_box_->addItem(tr("Every head of the layer"),
                     static_cast<int>(AttentionFrameView::LayerGrid));
  if (has_image)
    view_box_->addItem(tr("CLS attention over the image"),
                       static_cast<int>(AttentionFrameView::ClsOverlay));
  layer_box_ = new QSpinBox(this);
  layer_box_->setObjectName(QStringLiteral("videoLayer"));
  layer_box_->setRange(0, std::max(0, layers - 1));
  head_box_ = new QSpinBox(this);
  head_box_->setObjectName(QStringLiteral("videoHead"));
  head_box_->setRange(0, std::max(0, heads - 1));
  format_box_ = new QComboBox(this);
  format_box_->setObjectName(QStringLiteral("videoFormat"));
  format_box_->addItem(tr("GIF (plays everywhere, loops)"), static_cast<int>(VideoFormat::Gif));
  format_box_->addItem(tr("MP4 (small, sharp)"), static_cast<int>(VideoFormat::Mp4));
  fps_box_ = new QSpinBox(this);
  fps_box_->setObjectName(QStringLiteral("videoFps"));
  fps_box_->setRange(VideoEncoder::kMinFps, VideoEncoder::kMaxGifFps);
  fps_box_->setValue(4);
  fps_box_->setSuffix(tr(" frames/s"));
  length_label_ = new QLabel(this);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export…"));
  buttons->button(QDialogButtonBox::Ok)->setEnabled(snapshots > 0);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Show"), view_box_);
  form->addRow(tr("Layer"), layer_box_);
  form->addRow(tr("Head"), head_box_);
  form->addRow(tr("Format"), format_box_);
  form->addRow(tr("Speed"), fps_box_);
  form->addRow(length_label_);
  form->addRow(buttons);

  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(view_box_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { head_box_->setEnabled(view() != AttentionFrameView::LayerGrid); });
  connect(format_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    fps_box_->setMaximum(VideoEncoder::maxFps(format()));
    updateLength();
  });
  connect(fps_box_, qOverload<int>(&QSpinBox::valueChanged), this,
          &AttentionVideoDialog::updateLength);
  updateLength();
}

void AttentionVideoDialog::setChoice(AttentionFrameView view, int layer, int head,
                                     VideoFormat format, int fps) {
  const int index = view_box_->findData(static_cast<int>(view));
  if (index >= 0) view_box_->setCurrentIndex(index);
  layer_box_->setValue(layer);
  head_box_->setValue(head);
  format_box_->setCurrentIndex(format_box_->findData(static_cast<int>(format)));
  fps_box_->setValue(fps);
}

AttentionFrameView AttentionVideoDialog::view() const {
  return static_cast<AttentionFrameView>(view_box_->currentData().toInt());
}

int AttentionVideoDialog::layer() const {
  return layer_box_->value();
}

int AttentionVideoDialog::head() const {
  return head_box_->value();
}

VideoFormat AttentionVideoDialog::format() const {
  return static_cast<VideoFormat>(format_box_->currentData().toInt());
}

int AttentionVideoDialog::fps() const {
  return fps_box_->value();
}

void AttentionVideoDialog::updateLength() {
  if (snapshots_ == 0) {
    length_label_->setText(tr("The run has no stored snapshot yet."));
    return;
  }
  const QString frames = snapshots_ == 1 ? tr("1 frame") : tr("%1 frames").arg(snapshots_);
  length_label_->setText(tr("%1, one per stored snapshot: %2 s")
                             .arg(frames)
                             .arg(snapshots_ / double(fps()), 0, 'f', 1));
}

}  // namespace ascope
