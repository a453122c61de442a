#include "widgets/common/plot_exporter.h"

#include "widgets/common/qcustomplot_include.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QFontInfo>
#include <QFontMetrics>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextStream>

namespace ascope {
namespace {

ExportResult checkSize(const QWidget* target, const ExportSize& size) {
  if (!target) return ExportResult::failure(QObject::tr("Nothing to export."));
  if (size.width < 16 || size.height < 16 || size.width > 20000 || size.height > 20000)
    return ExportResult::failure(QObject::tr("Image size %1 x %2 is out of range (16..20000 px).")
                                     .arg(size.width)
                                     .arg(size.height));
  if (!(size.scale > 0.05 && size.scale <= 8.0))
    return ExportResult::failure(QObject::tr("Scale %1 is out of range.").arg(size.scale));
  return ExportResult::success();
}

ExportResult openSaveFile(QSaveFile& file) {
  if (!QDir().mkpath(QFileInfo(file.fileName()).absolutePath()) || !file.open(QIODevice::WriteOnly))
    return ExportResult::failure(
        QObject::tr("Cannot write %1: %2").arg(file.fileName(), file.errorString()));
  return ExportResult::success();
}

ExportResult commit(QSaveFile& file) {
  if (!file.commit())
    return ExportResult::failure(
        QObject::tr("Cannot write %1: %2").arg(file.fileName(), file.errorString()));
  return ExportResult::success();
}

// Vector devices are set to the plot's logical DPI so point-sized fonts keep the proportions
// they have on screen (a 72-dpi device would shrink all text by a quarter).
int screenDpi(QWidget* widget) {
  return widget->logicalDpiY() > 0 ? widget->logicalDpiY() : 96;
}

// One PDF page exactly the size of the figure, without margins.
QPageLayout pageLayoutFor(const ExportSize& size, int dpi) {
  const QSizeF points(size.width * 72.0 / dpi, size.height * 72.0 / dpi);
  QPageLayout layout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                     QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
  layout.setMode(QPageLayout::FullPageMode);
  return layout;
}

}  // namespace

ExportResult PlotExporter::savePng(QCustomPlot* plot, const QString& path, const ExportSize& size) {
  if (ExportResult r = checkSize(plot, size); !r.ok()) return r;
  QPixmap pixmap = plot->toPixmap(size.width, size.height, size.scale);
  plot->replot(QCustomPlot::rpQueuedReplot);  // toPixmap left the layout at the export size
  if (pixmap.isNull()) return ExportResult::failure(QObject::tr("Rendering the plot failed."));
  QSaveFile file(path);
  if (ExportResult r = openSaveFile(file); !r.ok()) return r;
  if (!pixmap.save(&file, "PNG")) {
    file.cancelWriting();
    return ExportResult::failure(QObject::tr("Cannot encode PNG for %1.").arg(path));
  }
  return commit(file);
}

ExportResult PlotExporter::savePdf(QCustomPlot* plot, const QString& path, const ExportSize& size) {
  if (ExportResult r = checkSize(plot, size); !r.ok()) return r;
  QSaveFile file(path);
  if (ExportResult r = openSaveFile(file); !r.ok()) return r;
  {
    QPdfWriter pdf(&file);
    const int dpi = screenDpi(plot);
    pdf.setResolution(dpi);
    pdf.setCreator(QStringLiteral("AttentionScope"));
    pdf.setPageLayout(pageLayoutFor(size, dpi));
    QCPPainter painter;
    if (!painter.begin(&pdf)) {
      file.cancelWriting();
      return ExportResult::failure(QObject::tr("Cannot start the PDF for %1.").arg(path));
    }
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    plot->toPainter(&painter, size.width, size.height);
    painter.end();
  }
  plot->replot(QCustomPlot::rpQueuedReplot);
  return commit(file);
}

ExportResult PlotExporter::saveSvg(QCustomPlot* plot, const QString& path, const ExportSize& size) {
  if (ExportResult r = checkSize(plot, size); !r.ok()) return r;
  QSaveFile file(path);
  if (ExportResult r = openSaveFile(file); !r.ok()) return r;
  {
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setResolution(screenDpi(plot));
    svg.setSize(QSize(size.width, size.height));
    svg.setViewBox(QRect(0, 0, size.width, size.height));
    svg.setTitle(QFileInfo(path).completeBaseName());
    svg.setDescription(QStringLiteral("Exported from AttentionScope"));
    QCPPainter painter;
    if (!painter.begin(&svg)) {
      file.cancelWriting();
      return ExportResult::failure(QObject::tr("Cannot start the SVG for %1.").arg(path));
    }
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    plot->toPainter(&painter, size.width, size.height);
    painter.end();
  }
  plot->replot(QCustomPlot::rpQueuedReplot);
  return commit(file);
}

ExportResult PlotExporter::save(QCustomPlot* plot, const QString& path, ImageFormat format,
                                const ExportSize& size) {
  switch (format) {
    case ImageFormat::Png:
      return savePng(plot, path, size);
    case ImageFormat::Pdf:
      return savePdf(plot, path, size);
    case ImageFormat::Svg:
      return saveSvg(plot, path, size);
  }
  return ExportResult::failure(QObject::tr("Unknown image format."));
}

ExportResult PlotExporter::saveWidget(QWidget* widget, const QString& path, ImageFormat format,
                                      const ExportSize& size, const QString& title) {
  if (ExportResult r = checkSize(widget, size); !r.ok()) return r;
  const QSize source = widget->size().expandedTo(QSize(1, 1));
  // The title's band: a twentieth of the figure's height, at least the widget's own font.
  QFont title_font = widget->font();
  title_font.setBold(true);
  title_font.setPixelSize(std::max(QFontInfo(widget->font()).pixelSize() + 2, size.height / 24));
  const int band = title.isEmpty() ? 0 : QFontMetrics(title_font).height() * 2;
  const int room = std::max(1, size.height - band);
  const double fit = std::min(size.width / double(source.width()), room / double(source.height()));
  auto paint = [&](QPainter& painter, double scale) {
    painter.fillRect(QRectF(0, 0, size.width * scale, size.height * scale),
                     widget->palette().color(QPalette::Window));
    if (band > 0) {
      painter.save();
      painter.scale(scale, scale);
      painter.setFont(title_font);
      painter.setPen(widget->palette().color(QPalette::WindowText));
      const QFontMetrics metrics(title_font);
      painter.drawText(QRectF(0, 0, size.width, band), Qt::AlignCenter,
                       metrics.elidedText(title, Qt::ElideRight, size.width - band));
      painter.restore();
    }
    painter.scale(scale * fit, scale * fit);
    const double dx = (size.width / fit - source.width()) / 2.0;
    const double dy = band / fit + (room / fit - source.height()) / 2.0;
    painter.translate(dx, dy);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  };
  QSaveFile file(path);
  if (ExportResult r = openSaveFile(file); !r.ok()) return r;
  if (format == ImageFormat::Png) {
    QImage image(qRound(size.width * size.scale), qRound(size.height * size.scale),
                 QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    paint(painter, size.scale);
    painter.end();
    if (!image.save(&file, "PNG")) {
      file.cancelWriting();
      return ExportResult::failure(QObject::tr("Cannot encode PNG for %1.").arg(path));
    }
  } else if (format == ImageFormat::Pdf) {
    QPdfWriter pdf(&file);
    const int dpi = screenDpi(widget);
    pdf.setResolution(dpi);
    pdf.setPageLayout(pageLayoutFor(size, dpi));
    QPainter painter(&pdf);
    paint(painter, 1.0);
  } else {
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setResolution(screenDpi(widget));
    svg.setSize(QSize(size.width, size.height));
    svg.setViewBox(QRect(0, 0, size.width, size.height));
    QPainter painter(&svg);
    paint(painter, 1.0);
  }
  return commit(file);
}

ExportResult PlotExporter::writeCsv(const QString& path, const QStringList& header,
                                    const std::function<void(QTextStream&)>& write_rows) {
  QSaveFile file(path);
  if (ExportResult r = openSaveFile(file); !r.ok()) return r;
  {
    QTextStream out(&file);
    out.setEncoding(QStringConverter::Utf8);
    QStringList fields;
    for (const QString& h : header) fields << csvField(h);
    out << fields.join(QLatin1Char(',')) << '\n';
    if (write_rows) write_rows(out);
    out.flush();
    if (out.status() != QTextStream::Ok) {
      file.cancelWriting();
      return ExportResult::failure(QObject::tr("Cannot write %1.").arg(path));
    }
  }
  return commit(file);
}

ExportResult PlotExporter::writeJson(const QString& path, const QJsonObject& json) {
  QSaveFile file(path);
  if (ExportResult r = openSaveFile(file); !r.ok()) return r;
  const QByteArray bytes = QJsonDocument(json).toJson(QJsonDocument::Indented);
  if (file.write(bytes) != bytes.size()) {
    file.cancelWriting();
    return ExportResult::failure(QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
  }
  return commit(file);
}

QString PlotExporter::csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

ExportResult PlotExporter::exportToFolder(const QList<Exportable*>& targets, const QString& folder,
                                          ImageFormat format, const ExportSize& size) {
  QDir dir(folder);
  if (!dir.mkpath(QStringLiteral(".")))
    return ExportResult::failure(QObject::tr("Cannot create folder %1.").arg(folder));
  for (Exportable* target : targets) {
    const QString stem = dir.filePath(target->exportBaseName());
    if (ExportResult r =
            target->exportImage(stem + QLatin1Char('.') + suffix(format), format, size);
        !r.ok())
      return r;
    if (ExportResult r = target->exportCsv(stem + QStringLiteral(".csv")); !r.ok()) return r;
  }
  return ExportResult::success();
}

QString PlotExporter::suffix(ImageFormat format) {
  switch (format) {
    case ImageFormat::Png:
      return QStringLiteral("png");
    case ImageFormat::Pdf:
      return QStringLiteral("pdf");
    case ImageFormat::Svg:
      return QStringLiteral("svg");
  }
  return QStringLiteral("png");
}

ImageFormat PlotExporter::formatForPath(const QString& path, ImageFormat fallback) {
  const QString ext = QFileInfo(path).suffix().toLower();
  if (ext == QLatin1String("png")) return ImageFormat::Png;
  if (ext == QLatin1String("pdf")) return ImageFormat::Pdf;
  if (ext == QLatin1String("svg")) return ImageFormat::Svg;
  return fallback;
}

}  // namespace ascope
