#include "widgets/common/plot_theme.h"

#include "widgets/common/qcustomplot_include.h"

namespace ascope {

QColor PlotTheme::mix(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                          static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                          static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

PlotTheme PlotTheme::fromPalette(const QPalette& palette, const QFont& font) {
  PlotTheme t;
  t.background = palette.color(QPalette::Base);
  t.foreground = palette.color(QPalette::Text);
  t.dark = t.background.lightnessF() < 0.5;
  t.muted = mix(t.foreground, t.background, 0.45);
  t.grid = mix(t.foreground, t.background, t.dark ? 0.78 : 0.86);
  t.sub_grid = mix(t.foreground, t.background, t.dark ? 0.88 : 0.93);
  t.accent = palette.color(QPalette::Highlight);

  // Tableau-10 hues (the matplotlib defaults people recognise), lifted a little on dark surfaces.
  if (t.dark) {
    t.smoothed = QColor(0x5d, 0xa5, 0xda);
    t.validation = QColor(0xff, 0x9d, 0x45);
    t.good = QColor(0x66, 0xbb, 0x6a);
    t.bad = QColor(0xef, 0x53, 0x50);
    t.warning = QColor(0xff, 0xb7, 0x4d);
    t.categorical = {QColor(0x5d, 0xa5, 0xda), QColor(0xff, 0x9d, 0x45), QColor(0x60, 0xbd, 0x68),
                     QColor(0xf1, 0x5c, 0x5c), QColor(0xb2, 0x76, 0xb2), QColor(0xde, 0xcf, 0x3f),
                     QColor(0x4d, 0xc9, 0xc9), QColor(0xf1, 0x7c, 0xb0)};
  } else {
    t.smoothed = QColor(0x1f, 0x77, 0xb4);
    t.validation = QColor(0xff, 0x7f, 0x0e);
    t.good = QColor(0x2e, 0x7d, 0x32);
    t.bad = QColor(0xc6, 0x28, 0x28);
    t.warning = QColor(0xb2, 0x6a, 0x00);
    t.categorical = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                     QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                     QColor(0x17, 0xbe, 0xcf), QColor(0xe3, 0x77, 0xc2)};
  }
  t.train = t.smoothed;

  t.font = font;
  t.label_font = font;
  t.title_font = font;
  t.title_font.setBold(true);
  if (t.title_font.pointSizeF() > 0) t.title_font.setPointSizeF(font.pointSizeF() * 1.1);
  return t;
}

QCPColorGradient PlotTheme::sequentialGradient() {
  QCPColorGradient g;
  g.clearColorStops();
  // viridis sampled at eleven points (matplotlib's _viridis_data)
  const QRgb stops[] = {0x440154, 0x482475, 0x414487, 0x355f8d, 0x2a788e, 0x21918c,
                        0x22a884, 0x44bf70, 0x7ad151, 0xbddf26, 0xfde725};
  for (int i = 0; i < 11; ++i) g.setColorStopAt(i / 10.0, QColor(stops[i]));
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setLevelCount(256);
  g.setNanHandling(QCPColorGradient::nhTransparent);
  return g;
}

QCPColorGradient PlotTheme::divergingGradient() {
  QCPColorGradient g;
  g.clearColorStops();
  // coolwarm (Moreland): readable on light and dark surfaces, grey at zero
  g.setColorStopAt(0.0, QColor(0x3b, 0x4c, 0xc0));
  g.setColorStopAt(0.25, QColor(0x7b, 0x9f, 0xf9));
  g.setColorStopAt(0.5, QColor(0xdd, 0xdc, 0xdc));
  g.setColorStopAt(0.75, QColor(0xf4, 0x98, 0x7a));
  g.setColorStopAt(1.0, QColor(0xb4, 0x04, 0x26));
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setLevelCount(256);
  g.setNanHandling(QCPColorGradient::nhTransparent);
  return g;
}

QColor PlotTheme::withAlpha(const QColor& color, int alpha) const {
  QColor c = color;
  c.setAlpha(alpha);
  return c;
}

void PlotTheme::applyTo(QCustomPlot* plot) const {
  plot->setBackground(QBrush(background));
  for (QCPAxisRect* rect : plot->axisRects()) applyTo(rect);
  if (plot->legend) applyTo(plot->legend);
  for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
    // colour scales and titles can sit anywhere in the layout; walk it once
    QList<QCPLayoutElement*> stack{plot->plotLayout()->elementAt(i)};
    while (!stack.isEmpty()) {
      QCPLayoutElement* e = stack.takeLast();
      if (!e) continue;
      if (auto* scale = qobject_cast<QCPColorScale*>(e)) applyTo(scale);
      if (auto* title = qobject_cast<QCPTextElement*>(e)) applyTo(title);
      if (auto* legend = qobject_cast<QCPLegend*>(e)) applyTo(legend);
      if (qobject_cast<QCPLayoutGrid*>(e) && !qobject_cast<QCPLegend*>(e))
        stack.append(e->elements(false));
    }
  }
}

void PlotTheme::applyTo(QCPAxisRect* rect) const {
  rect->setBackground(QBrush(background));
  for (QCPAxis* axis : rect->axes()) applyTo(axis);
}

void PlotTheme::applyTo(QCPAxis* axis) const {
  const QPen axis_pen(mix(foreground, background, 0.25), 1);
  axis->setBasePen(axis_pen);
  axis->setTickPen(axis_pen);
  axis->setSubTickPen(axis_pen);
  axis->setTickLabelColor(foreground);
  axis->setLabelColor(foreground);
  axis->setTickLabelFont(font);
  axis->setLabelFont(label_font);
  axis->setSelectedTickLabelFont(font);
  axis->setSelectedLabelFont(label_font);
  axis->grid()->setPen(QPen(grid, 1, Qt::SolidLine));
  axis->grid()->setSubGridPen(QPen(sub_grid, 1, Qt::DotLine));
  axis->grid()->setZeroLinePen(QPen(grid, 1, Qt::SolidLine));
}

void PlotTheme::applyTo(QCPLegend* legend) const {
  legend->setFont(font);
  legend->setSelectedFont(font);
  legend->setTextColor(foreground);
  legend->setBrush(QBrush(withAlpha(background, 215)));
  legend->setBorderPen(QPen(grid));
}

void PlotTheme::applyTo(QCPColorScale* scale) const {
  applyTo(scale->axis());
  scale->axis()->grid()->setVisible(false);
}

void PlotTheme::applyTo(QCPTextElement* title) const {
  // Bold elements are titles; the rest (e.g. "head 3") keep the regular font.
  title->setFont(title->font().bold() ? title_font : font);
  title->setTextColor(foreground);
}

}  // namespace ascope
