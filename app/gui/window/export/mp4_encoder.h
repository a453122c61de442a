#pragma once
// MP4 through OpenCV's VideoWriter (its FFmpeg backend): H.264 ("avc1") where the FFmpeg build
// has an encoder for it, else MPEG-4 part 2 ("mp4v"), which every FFmpeg build has.
#include <memory>

#include "app/gui/window/export/video_encoder.h"

namespace cv {
class VideoWriter;
}

namespace ascope {

class Mp4Encoder final : public VideoEncoder {
 public:
  Mp4Encoder();
  ~Mp4Encoder() override;
  Mp4Encoder(const Mp4Encoder&) = delete;
  Mp4Encoder& operator=(const Mp4Encoder&) = delete;

  QString open(const QString& path, QSize size, int fps) override;
  QString addFrame(const QImage& frame) override;
  QString close() override;
  int frameCount() const override { return frames_; }
  /// "avc1" or "mp4v" once open.
  QString codec() const { return codec_; }
  /// Empty when the file at `path` is a whole MP4: its boxes end where the file ends, with an
  /// index (moov) and frames (a non-empty mdat); otherwise what is wrong, for a message.
  static QString checkMp4File(const QString& path);

 private:
  std::unique_ptr<cv::VideoWriter> writer_;
  QString path_;
  QString codec_;
  QSize size_;
  int frames_ = 0;
};

}  // namespace ascope
