#include "app/gui/window/export/gif_encoder.h"

#include <gif_lib.h>

#include <QFile>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

namespace ascope {

GifEncoder::~GifEncoder() {
  if (gif_ != nullptr) EGifCloseFile(gif_, nullptr);
}

QString GifEncoder::failure(const QString& what) const {
  const int code = gif_ != nullptr ? gif_->Error : 0;
  const char* reason = GifErrorString(code);
  return QObject::tr("cannot write the GIF %1: %2 (%3)")
      .arg(path_, what, QString::fromLatin1(reason != nullptr ? reason : "unknown error"));
}

QString GifEncoder::open(const QString& path, QSize size, int fps) {
  if (size.width() < 1 || size.height() < 1 || size.width() > 0xFFFF || size.height() > 0xFFFF)
    return QObject::tr("a GIF frame cannot be %1 x %2 pixels").arg(size.width()).arg(size.height());
  if (fps < kMinFps || fps > kMaxGifFps)
    return QObject::tr("a GIF plays %1..%2 frames per second, not %3")
        .arg(kMinFps)
        .arg(kMaxGifFps)
        .arg(fps);
  path_ = path;
  size_ = size;
  delay_cs_ = std::max(2, static_cast<int>(std::lround(100.0 / fps)));
  // giflib's own open creates files 0600; a video is a document like any other (umask applies).
  const int fd =
      ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    return QObject::tr("cannot create the GIF %1: %2")
        .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
  }
  int error = 0;
  gif_ = EGifOpenFileHandle(fd, &error);  // owns fd once it returns a file
  if (gif_ == nullptr) {
    ::close(fd);
    const char* reason = GifErrorString(error);
    return QObject::tr("cannot create the GIF %1: %2")
        .arg(path, QString::fromLatin1(reason != nullptr ? reason : "unknown error"));
  }
  EGifSetGifVersion(gif_, true);  // GIF89a: frame delays and looping are extensions
  if (EGifPutScreenDesc(gif_, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR)
    return failure(QObject::tr("screen descriptor"));
  // The Netscape application extension: loop count 0 = forever.
  static const unsigned char kLoopForever[3] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif_, 11, "NETSCAPE2.0") == GIF_ERROR ||
      EGifPutExtensionBlock(gif_, 3, kLoopForever) == GIF_ERROR ||
      EGifPutExtensionTrailer(gif_) == GIF_ERROR)
    return failure(QObject::tr("loop extension"));
  const std::size_t pixels = static_cast<std::size_t>(size.width()) * size.height();
  red_.resize(pixels);
  green_.resize(pixels);
  blue_.resize(pixels);
  indices_.resize(pixels);
  return {};
}

QString GifEncoder::addFrame(const QImage& frame) {
  if (gif_ == nullptr) return QObject::tr("the GIF %1 is not open").arg(path_);
  if (frame.size() != size_)
    return QObject::tr("frame of %1 x %2 pixels in a GIF of %3 x %4")
        .arg(frame.width())
        .arg(frame.height())
        .arg(size_.width())
        .arg(size_.height());
  const QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
  const int width = size_.width();
  for (int y = 0; y < size_.height(); ++y) {
    const unsigned char* line = rgb.constScanLine(y);
    const std::size_t row = static_cast<std::size_t>(y) * width;
    for (int x = 0; x < width; ++x) {
      red_[row + x] = line[3 * x];
      green_[row + x] = line[3 * x + 1];
      blue_[row + x] = line[3 * x + 2];
    }
  }
  int colors = 256;
  GifColorType palette[256] = {};
  if (GifQuantizeBuffer(static_cast<unsigned>(width), static_cast<unsigned>(size_.height()),
                        &colors, red_.data(), green_.data(), blue_.data(), indices_.data(),
                        palette) == GIF_ERROR)
    return failure(QObject::tr("colour quantisation of frame %1").arg(frames_ + 1));
  // The map is always 256 entries (a power of two, as GIF wants); unused ones stay black.
  ColorMapObject* map = GifMakeMapObject(256, palette);
  if (map == nullptr) return QObject::tr("out of memory for a GIF palette");
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.UserInputFlag = false;
  control.DelayTime = delay_cs_;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const std::size_t length = EGifGCBToExtension(&control, extension);
  bool ok = EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) !=
                GIF_ERROR &&
            EGifPutImageDesc(gif_, 0, 0, width, size_.height(), false, map) != GIF_ERROR;
  GifFreeMapObject(map);
  for (int y = 0; ok && y < size_.height(); ++y) {
    ok = EGifPutLine(gif_, indices_.data() + static_cast<std::size_t>(y) * width, width) !=
         GIF_ERROR;
  }
  if (!ok) return failure(QObject::tr("frame %1").arg(frames_ + 1));
  ++frames_;
  return {};
}

QString GifEncoder::close() {
  if (gif_ == nullptr) return {};
  int error = 0;
  const int result = EGifCloseFile(gif_, &error);
  gif_ = nullptr;  // freed whatever the result
  if (result == GIF_ERROR) {
    const char* reason = GifErrorString(error);
    return QObject::tr("cannot finish the GIF %1: %2")
        .arg(path_, QString::fromLatin1(reason != nullptr ? reason : "unknown error"));
  }
  return {};
}

}  // namespace ascope
