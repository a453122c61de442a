#pragma once
// Animated GIF through giflib: each frame gets its own 256-colour palette (giflib's median-cut
// GifQuantizeBuffer), so the colour map of a heatmap and the anti-aliased caption both keep
// their colours; the animation loops forever, as a slide's should.
#include <vector>

#include "app/gui/window/export/video_encoder.h"

struct GifFileType;

namespace ascope {

class GifEncoder final : public VideoEncoder {
 public:
  GifEncoder() = default;
  ~GifEncoder() override;
  GifEncoder(const GifEncoder&) = delete;
  GifEncoder& operator=(const GifEncoder&) = delete;

  QString open(const QString& path, QSize size, int fps) override;
  QString addFrame(const QImage& frame) override;
  QString close() override;
  int frameCount() const override { return frames_; }

 private:
  QString failure(const QString& what) const;

  GifFileType* gif_ = nullptr;
  QString path_;
  QSize size_;
  int delay_cs_ = 10;  ///< between frames, in hundredths of a second
  int frames_ = 0;
  std::vector<unsigned char> red_, green_, blue_, indices_;
};

}  // namespace ascope
