#pragma once

#include <QString>

#include <functional>

namespace ascope {

enum class ImageFormat { Png, Pdf, Svg };

/// Output size of an exported figure in pixels (PDF/SVG: the layout is computed for this size, the
/// result stays vector). `scale` multiplies the PNG resolution without changing the layout. The
/// default is a 16:9 slide laid out at 1280 x 720, its PNG sharp on a projector at twice that.
struct ExportSize {
  int width = 1280;
  int height = 720;
  double scale = 2.0;

  /// For a lecture hall: the same 2560 x 1440 pixels, laid out at 800 x 450, so every text is
  /// 1.6 times larger against the figure and readable from the back of a 200-seat room (issue
  /// 24). Vector exports keep the proportions.
  static ExportSize forSlides() { return {800, 450, 3.2}; }
  bool operator==(const ExportSize& other) const {
    return width == other.width && height == other.height && scale == other.scale;
  }
};

/// Result of an export: empty error means success; otherwise a message meant for a person.
struct ExportResult {
  QString error;
  bool cancelled = false;  ///< stopped by the user between two figures (error says so too)

  bool ok() const { return error.isEmpty(); }
  static ExportResult success() { return {}; }
  static ExportResult failure(const QString& message) { return {message}; }
  static ExportResult cancel() { return {QStringLiteral("export cancelled"), true}; }
};

/// Called before each figure of an export of many: a window's progress keeps its event loop
/// turning there (Ctrl+E froze the window 8–10 s), and false stops the export (the
/// user cancelled). Empty: never called.
using BetweenFigures = std::function<bool()>;

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
  /// The title exported figures carry from now on ("2026-11-21_vit · step 1200 · loss"), for a
  /// panel whose screen has no title of its own; "" for none. Panels with their own titles
  /// ignore it.
  virtual void setExportTitle(const QString& title) { (void)title; }
};

}  // namespace ascope
