#pragma once
// Writes a video frame by frame: an animated GIF (giflib) or an MP4 (OpenCV's VideoWriter).
// Encoders are not thread-safe; an export drives one from a single worker thread at a time.
#include <QImage>
#include <QSize>
#include <QString>

#include <memory>
#include <optional>

namespace ascope {

enum class VideoFormat { Gif, Mp4 };

/// The format a file name asks for (".gif", ".mp4", any case); none for anything else.
std::optional<VideoFormat> videoFormatForPath(const QString& path);
QString videoFormatSuffix(VideoFormat format);

class VideoEncoder {
 public:
  /// Frames per second each format can carry: a GIF counts delays in hundredths of a second
  /// (and viewers slow anything under 2 down), an MP4 player keeps up with 60.
  static constexpr int kMinFps = 1;
  static constexpr int kMaxGifFps = 50;
  static constexpr int kMaxMp4Fps = 60;

  virtual ~VideoEncoder() = default;
  /// Starts `path` for frames of `size` at `fps` frames per second; an error for a person, or
  /// an empty string.
  virtual QString open(const QString& path, QSize size, int fps) = 0;
  /// Appends one frame (any format; converted here) of the size given to open().
  virtual QString addFrame(const QImage& frame) = 0;
  /// Finishes the file; after an error the file is incomplete and the caller removes it.
  virtual QString close() = 0;
  /// Frames added so far.
  virtual int frameCount() const = 0;

  static std::unique_ptr<VideoEncoder> create(VideoFormat format);
  static int maxFps(VideoFormat format) {
    return format == VideoFormat::Gif ? kMaxGifFps : kMaxMp4Fps;
  }
};

}  // namespace ascope
