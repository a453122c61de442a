#pragma once

#include "widgets/common/exportable.h"

#include <QList>
#include <QString>

#include <functional>

class QCustomPlot;
class QJsonObject;
class QTextStream;
class QWidget;

namespace ascope {

/// Writes figures and tables to disk atomically: a reader never sees a half-written file, and a
/// failed export leaves an existing file untouched (QSaveFile commits by rename).
class PlotExporter {
 public:
  /// Renders the plot laid out for `size` (axes, labels and colour scales included).
  static ExportResult savePng(QCustomPlot* plot, const QString& path, const ExportSize& size);
  static ExportResult savePdf(QCustomPlot* plot, const QString& path, const ExportSize& size);
  static ExportResult saveSvg(QCustomPlot* plot, const QString& path, const ExportSize& size);
  static ExportResult save(QCustomPlot* plot, const QString& path, ImageFormat format,
                           const ExportSize& size);

  /// Any widget (not a plot): rendered at its current size, scaled uniformly into `size`; with a
  /// `title`, under it in a band of its own (a slide says what it shows, as a plot's title does).
  static ExportResult saveWidget(QWidget* widget, const QString& path, ImageFormat format,
                                 const ExportSize& size, const QString& title = {});

  /// Writes a UTF-8 CSV: the header line, then whatever `write_rows` streams.
  static ExportResult writeCsv(const QString& path, const QStringList& header,
                               const std::function<void(QTextStream&)>& write_rows);
  /// Writes `json` as an indented UTF-8 JSON document (a figure's sidecar).
  static ExportResult writeJson(const QString& path, const QJsonObject& json);
  /// Quotes a field when it holds a comma, quote or line break (RFC 4180).
  static QString csvField(const QString& text);

  /// Saves every target as <folder>/<exportBaseName>.<png|pdf|svg> and .csv; stops at the first
  /// failure and reports it.
  static ExportResult exportToFolder(const QList<Exportable*>& targets, const QString& folder,
                                     ImageFormat format, const ExportSize& size);

  static QString suffix(ImageFormat format);
  static ImageFormat formatForPath(const QString& path, ImageFormat fallback = ImageFormat::Png);
};

}  // namespace ascope
