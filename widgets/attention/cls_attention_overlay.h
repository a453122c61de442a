#pragma once

#include <QImage>
#include <QWidget>

#include "widgets/attention/attention_plot_data.h"

#include <vector>

namespace ascope {

/// The probe image with the CLS token's attention to each patch laid over it (brighter = more
/// attention), so "where does the classifier look" can be read off the picture.
class ClsAttentionOverlay : public QWidget {
  Q_OBJECT

 public:
  explicit ClsAttentionOverlay(QWidget* parent = nullptr);

  /// The CLS query's weights over the patches of `image` (row 0 of `head` without its CLS
  /// column); empty when `head` is not attention over those patches.
  static std::vector<float> clsPatchWeights(const PatchImageContext& image,
                                            const LabeledMatrix& head);

  /// `patch_weights` holds grid_rows * grid_cols weights in row-major patch order.
  void setData(const QImage& image, const std::vector<float>& patch_weights, int grid_rows,
               int grid_cols, const QString& caption);
  void clear();
  bool hasData() const { return !image_.isNull(); }
  const std::vector<float>& patchWeights() const { return weights_; }

  QSize sizeHint() const override { return {240, 260}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QImage image_;
  std::vector<float> weights_;
  int grid_rows_ = 0;
  int grid_cols_ = 0;
  QString caption_;
};

}  // namespace ascope
