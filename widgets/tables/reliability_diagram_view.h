#pragma once
// A reliability diagram: accuracy against confidence per equal-width bin, the diagonal where the
// two agree. Bars are the accuracy of each bin at the run's temperature; the line with points is
// the model's own probabilities, so the gap a temperature closes is seen. The title carries the
// expected calibration error before → after.
#include <QWidget>

#include "widgets/tables/reliability_diagram_data.h"

namespace ascope {

class ThemedPlot;
struct PlotTheme;

class ReliabilityDiagramView : public QWidget {
  Q_OBJECT

 public:
  explicit ReliabilityDiagramView(QWidget* parent = nullptr);

  void setDiagram(const ReliabilityDiagramData& data);
  void clearDiagram();
  const ReliabilityDiagramData& diagram() const { return data_; }
  /// "ECE 0.112 → 0.021 at temperature 1.84", or "ECE 0.041" at temperature 1.
  QString title() const;
  ThemedPlot* plot() const { return plot_; }

 private:
  void rebuild();
  void applyTheme(const PlotTheme& theme);

  ReliabilityDiagramData data_;
  ThemedPlot* plot_ = nullptr;
};

}  // namespace ascope
