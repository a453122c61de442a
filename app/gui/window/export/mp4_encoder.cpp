#include "app/gui/window/export/mp4_encoder.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <QFile>
#include <QFileInfo>

namespace ascope {

Mp4Encoder::Mp4Encoder() : writer_(std::make_unique<cv::VideoWriter>()) {}

Mp4Encoder::~Mp4Encoder() = default;

QString Mp4Encoder::open(const QString& path, QSize size, int fps) {
  // Both codecs work on 2 x 2 chroma blocks: odd sizes are refused by the encoder.
  if (size.width() < 16 || size.height() < 16 || size.width() % 2 != 0 || size.height() % 2 != 0)
    return QObject::tr("an MP4 frame must be even-sized and at least 16 x 16, not %1 x %2")
        .arg(size.width())
        .arg(size.height());
  if (fps < kMinFps || fps > kMaxMp4Fps)
    return QObject::tr("an MP4 plays %1..%2 frames per second here, not %3")
        .arg(kMinFps)
        .arg(kMaxMp4Fps)
        .arg(fps);
  path_ = path;
  size_ = size;
  const std::string file = QFile::encodeName(path).toStdString();
  for (const char* codec : {"avc1", "mp4v"}) {
    const int fourcc = cv::VideoWriter::fourcc(codec[0], codec[1], codec[2], codec[3]);
    try {
      if (writer_->open(file, cv::CAP_FFMPEG, fourcc, fps, cv::Size(size.width(), size.height()),
                        true)) {
        codec_ = QString::fromLatin1(codec);
        return {};
      }
    } catch (const cv::Exception& e) {
      // The next codec may still work; the message below names the last failure.
      codec_ = QString::fromStdString(e.msg);
    }
  }
  return QObject::tr(
             "cannot write the MP4 %1: OpenCV's video writer (FFmpeg backend) opens "
             "neither an H.264 nor an MPEG-4 encoder for it%2")
      .arg(path, codec_.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(codec_));
}

QString Mp4Encoder::addFrame(const QImage& frame) {
  if (!writer_->isOpened()) return QObject::tr("the MP4 %1 is not open").arg(path_);
  if (frame.size() != size_)
    return QObject::tr("frame of %1 x %2 pixels in an MP4 of %3 x %4")
        .arg(frame.width())
        .arg(frame.height())
        .arg(size_.width())
        .arg(size_.height());
  const QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
  // A view of the QImage's rows (they are padded to 4 bytes), converted to OpenCV's BGR.
  const cv::Mat view(rgb.height(), rgb.width(), CV_8UC3, const_cast<uchar*>(rgb.constBits()),
                     static_cast<std::size_t>(rgb.bytesPerLine()));
  cv::Mat bgr;
  try {
    cv::cvtColor(view, bgr, cv::COLOR_RGB2BGR);
    writer_->write(bgr);
  } catch (const cv::Exception& e) {
    return QObject::tr("cannot write frame %1 of the MP4 %2: %3")
        .arg(frames_ + 1)
        .arg(path_, QString::fromStdString(e.msg));
  }
  ++frames_;
  return {};
}

QString Mp4Encoder::close() {
  if (!writer_->isOpened()) return {};
  try {
    writer_->release();
  } catch (const cv::Exception& e) {
    return QObject::tr("cannot finish the MP4 %1: %2").arg(path_, QString::fromStdString(e.msg));
  }
  // The writer reports no I/O errors (a full disk included): on a full disk it "succeeded" with an
  // empty media box and no index, an unplayable file. The file itself is the proof.
  if (frames_ > 0) {
    if (const QString problem = checkMp4File(path_); !problem.isEmpty())
      return QObject::tr("cannot write the MP4 %1: %2 (is the disk full?)").arg(path_, problem);
  }
  return {};
}

QString Mp4Encoder::checkMp4File(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return QObject::tr("it cannot be read back");
  const qint64 size = file.size();
  if (size == 0) return QObject::tr("the file stayed empty");
  // ISO base media: a file is a sequence of boxes, each a 32-bit size (1: a 64-bit one follows;
  // 0: up to the end) and a four-letter type. A playable one has its index (moov) and frames
  // (mdat) whole.
  bool index = false, frames = false;
  for (qint64 at = 0; at < size;) {
    if (!file.seek(at)) return QObject::tr("it cannot be read back");
    const QByteArray header = file.read(16);
    if (header.size() < 8) return QObject::tr("it ends inside a box header");
    const auto byte = [&header](int i) {
      return static_cast<quint64>(static_cast<uchar>(header[i]));
    };
    quint64 box = byte(0) << 24 | byte(1) << 16 | byte(2) << 8 | byte(3);
    qint64 header_bytes = 8;
    if (box == 1) {
      if (header.size() < 16) return QObject::tr("it ends inside a box header");
      box = 0;
      for (int i = 8; i < 16; ++i) box = box << 8 | byte(i);
      header_bytes = 16;
    } else if (box == 0) {
      box = static_cast<quint64>(size - at);
    }
    const QByteArray type = header.mid(4, 4);
    if (box < static_cast<quint64>(header_bytes) || box > static_cast<quint64>(size - at))
      return QObject::tr("a box at byte %1 runs past the end of the file").arg(at);
    if (type == "moov") index = true;
    if (type == "mdat" && box > static_cast<quint64>(header_bytes)) frames = true;
    at += static_cast<qint64>(box);
  }
  if (!frames) return QObject::tr("it holds no frames (an empty media box)");
  if (!index) return QObject::tr("it has no index (no moov box)");
  return {};
}

}  // namespace ascope
