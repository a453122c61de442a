#pragma once

#include <QString>

namespace ascope {

enum class ImageFormat { Png, Pdf, Svg };

/// Output size of an exported figure in pixels (PDF/SVG: the layout is computed for this size, the
/// result stays vector). `scale` multiplies the PNG resolution without changing the layout. The
/// default is a 16:9 slide laid out at 1280 x 720, its PNG sharp on a projector at twice that.
struct ExportSize {
  int width = 1280;
  int height = 720;
  double scale = 2.0;
};

/// Result of an export: empty error means success; otherwise a message meant for a person.
struct ExportResult {
  QString error;

  bool ok() const { return error.isEmpty(); }
  static ExportResult success() { return {}; }
  static ExportResult failure(const QString& message) { return {message}; }
};

/// Implemented by every panel that can save itself as a figure and its data as CSV, so the main
/// window can offer "Export all panels to a folder" without knowing the panels.
class Exportable {
 public:
  virtual ~Exportable() = default;

  /// File name stem for exports, e.g. "loss" or "attention_encoder_self".
  virtual QString exportBaseName() const = 0;
  virtual ExportResult exportImage(const QString& path, ImageFormat format,
                                   const ExportSize& size) = 0;
  virtual ExportResult exportCsv(const QString& path) const = 0;
};

}  // namespace ascope
