#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QVector>

class QCPAxis;
class QCPAxisRect;
class QCPColorGradient;
class QCPColorScale;
class QCPLegend;
class QCPTextElement;
class QCustomPlot;

namespace ascope {

/// The one colour and font scheme every panel draws with. Built from the widget's palette so plots
/// follow the system light/dark theme; panels rebuild it on QEvent::PaletteChange.
struct PlotTheme {
  QColor background;  ///< plot surface (QPalette::Base)
  QColor foreground;  ///< text, axes (QPalette::Text)
  QColor muted;       ///< secondary text, hints
  QColor grid;
  QColor sub_grid;
  QColor accent;  ///< selection, focus (QPalette::Highlight)

  QColor train;                 ///< raw training series (drawn faint)
  QColor smoothed;              ///< smoothed training series
  QColor validation;            ///< validation series and markers
  QVector<QColor> categorical;  ///< distinct colours for several curves (colour-blind safe)

  QColor good;     ///< correct prediction
  QColor bad;      ///< wrong prediction, errors
  QColor warning;  ///< warnings, words missing from a translation

  QFont font;        ///< tick labels, legend (the application font, never shrunk)
  QFont label_font;  ///< axis titles
  QFont title_font;  ///< plot titles

  bool dark = false;

  static PlotTheme fromPalette(const QPalette& palette, const QFont& font);

  /// Perceptually uniform dark-to-bright map (viridis) for weights and similarities.
  static QCPColorGradient sequentialGradient();
  /// Blue-grey-red map (coolwarm) for signed values centred on zero.
  static QCPColorGradient divergingGradient();

  QColor withAlpha(const QColor& color, int alpha) const;
  /// `a` moved a share `t` (0..1) of the way towards `b`, channel by channel.
  static QColor mix(const QColor& a, const QColor& b, double t);

  void applyTo(QCustomPlot* plot) const;  ///< background, every axis rect, legend, colour scale
  void applyTo(QCPAxisRect* rect) const;
  void applyTo(QCPAxis* axis) const;
  void applyTo(QCPLegend* legend) const;
  void applyTo(QCPColorScale* scale) const;
  void applyTo(QCPTextElement* title) const;
};

}  // namespace ascope
