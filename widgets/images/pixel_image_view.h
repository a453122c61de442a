#pragma once

#include <QImage>
#include <QWidget>

namespace ascope {

/// Shows a small image (32x32 CIFAR, 28x28 MNIST) enlarged with nearest-neighbour sampling, by a
/// whole factor when it fits, so every source pixel is a crisp square instead of a blur.
class PixelImageView : public QWidget {
  Q_OBJECT

 public:
  explicit PixelImageView(QWidget* parent = nullptr);

  void setImage(const QImage& image);
  const QImage& image() const { return image_; }
  /// Where the image is drawn inside the widget (empty when there is no image).
  QRect imageRect() const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QImage image_;
};

}  // namespace ascope
