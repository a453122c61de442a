#pragma once

#include "widgets/common/qcustomplot_include.h"

namespace ascope {

/// One legend entry for cells that have no weight: a swatch of their colour and what they mean
/// ("masked (causal)"), placed next to a colour scale so masked cells are never read as the
/// scale's lowest colour. Takes no room while it is not shown.
class MaskedCellLegend : public QCPLayoutElement {
 public:
  explicit MaskedCellLegend(QCustomPlot* plot);

  void setText(const QString& text);
  QString text() const { return text_; }
  void setFont(const QFont& font);
  void setColors(const QColor& swatch, const QColor& text);
  QColor swatchColor() const { return swatch_; }
  void setShown(bool shown);
  bool isShown() const { return shown_; }

  QSize minimumOuterSizeHint() const override;
  QSize maximumOuterSizeHint() const override;

 protected:
  void draw(QCPPainter* painter) override;

 private:
  QSize contentSize() const;

  QString text_;
  QFont font_;
  QColor swatch_ = Qt::gray;
  QColor text_color_ = Qt::black;
  bool shown_ = false;
};

}  // namespace ascope
