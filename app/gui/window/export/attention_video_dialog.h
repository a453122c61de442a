#pragma once
// The choices of File → Export attention video…: what the frames show (one head, the layer's
// grid of heads, the CLS overlay for vision transformers), which layer and head, the format and
// the frame rate. Starts from what the Attention dock shows.
#include <QDialog>

#include "app/gui/window/export/video_encoder.h"
#include "widgets/attention/attention_frame_renderer.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace ascope {

class AttentionVideoDialog : public QDialog {
  Q_OBJECT

 public:
  /// `layers` and `heads` of the group shown; `has_image`: the CLS overlay can be drawn;
  /// `snapshots`: the frames the video will have.
  AttentionVideoDialog(int layers, int heads, bool has_image, int snapshots,
                       QWidget* parent = nullptr);

  void setChoice(AttentionFrameView view, int layer, int head, VideoFormat format, int fps);
  AttentionFrameView view() const;
  int layer() const;
  int head() const;
  VideoFormat format() const;
  int fps() const;

  QComboBox* viewBox() const { return view_box_; }
  QSpinBox* layerBox() const { return layer_box_; }
  QSpinBox* headBox() const { return head_box_; }
  QComboBox* formatBox() const { return format_box_; }
  QSpinBox* fpsBox() const { return fps_box_; }

 private:
  void updateLength();

  int snapshots_;
  QComboBox* view_box_ = nullptr;
  QSpinBox* layer_box_ = nullptr;
  QSpinBox* head_box_ = nullptr;
  QComboBox* format_box_ = nullptr;
  QSpinBox* fps_box_ = nullptr;
  QLabel* length_label_ = nullptr;
};

}  // namespace ascope
