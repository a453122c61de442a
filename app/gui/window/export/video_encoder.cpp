#include "app/gui/window/export/video_encoder.h"

#include <QFileInfo>

#include "app/gui/window/export/gif_encoder.h"
#include "app/gui/window/export/mp4_encoder.h"

namespace ascope {

std::optional<VideoFormat> videoFormatForPath(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("gif")) return VideoFormat::Gif;
  if (suffix == QLatin1String("mp4")) return VideoFormat::Mp4;
  return std::nullopt;
}

QString videoFormatSuffix(VideoFormat format) {
  return format == VideoFormat::Gif ? QStringLiteral("gif") : QStringLiteral("mp4");
}

std::unique_ptr<VideoEncoder> VideoEncoder::create(VideoFormat format) {
  if (format == VideoFormat::Gif) return std::make_unique<GifEncoder>();
  return std::make_unique<Mp4Encoder>();
}

}  // namespace ascope
