#include "widgets/computation/computation_bar_plot.h"

#include "widgets/common/plot_exporter.h"

#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace ascope {

ComputationBarPlot::ComputationBarPlot(QWidget* parent) : ThemedPlot(parent) {
  title_ = new QCPTextElement(this, QString(), theme().font);
  title_->setMargins(QMargins(4, 2, 4, 2));
  title_->setMinimumSize(1, 0);
  title_->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
  plotLayout()->insertRow(0);
  plotLayout()->addElement(0, 0, title_);
  bars_ = new QCPBars(xAxis, yAxis);
  accent_ = new QCPBars(xAxis, yAxis);
  for (QCPBars* b : {bars_, accent_}) {
    b->setWidth(0.7);
    b->setPen(Qt::NoPen);
  }
  xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  xAxis->setSubTicks(false);
  xAxis->setTickLength(0, 3);
  xAxis->grid()->setVisible(false);
  yAxis->grid()->setZeroLinePen(QPen(theme().foreground, 1));
  yAxis->ticker()->setTickCount(3);  // a plot a hundred pixels high reads three numbers
  setMinimumHeight(56);
  setEmptyHint(tr("Click a weight to take it apart"));
  setEmptyState(true);
  connect(this, &ThemedPlot::themeChanged, this, [this] { render(); });
}

void ComputationBarPlot::setBars(const QString& title, const QStringList& labels,
                                 const std::vector<double>& values, int highlighted) {
  title_text_ = title;
  labels_ = labels;
  values_ = values;
  highlighted_ = highlighted;
  render();
}

void ComputationBarPlot::clearBars() {
  setBars({}, {}, {}, -1);
}

void ComputationBarPlot::render() {
  const PlotTheme& theme = this->theme();
  title_->setText(export_title_.isEmpty() ? title_text_
                                          : export_title_ + QStringLiteral(" · ") + title_text_);
  title_->setTextColor(theme.foreground);
  title_->setFont(theme.font);
  bars_->data()->clear();
  accent_->data()->clear();
  bars_->setBrush(theme.withAlpha(theme.muted, 170));
  accent_->setBrush(theme.accent);
  yAxis->grid()->setZeroLinePen(QPen(theme.foreground, 1));
  setEmptyState(values_.empty());
  double low = 0, high = 0;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    const double v = values_[i];
    if (std::isnan(v)) continue;
    (static_cast<int>(i) == highlighted_ ? accent_ : bars_)->addData(static_cast<double>(i), v);
    low = std::min(low, v);
    high = std::max(high, v);
  }
  const double pad = std::max(1e-6, (high - low) * 0.08);
  yAxis->setRange(low - (low < 0 ? pad : 0), high + (high > 0 ? pad : 0));
  xAxis->setRange(-0.6, static_cast<double>(values_.size()) - 0.4);
  adjustLayout();
  replot(rpQueuedReplot);
}

bool ComputationBarPlot::adjustLayout() {
  // Every label where they fit, else every 2nd, 5th, …: 64 dimensions do not fit 300 px.
  const int count = static_cast<int>(labels_.size());
  const int width = std::max(1, axisRect()->width());
  QFontMetrics metrics(theme().font);
  int widest = 1;
  for (const QString& label : labels_) {
    for (const QString& line : label.split(QLatin1Char('\n')))
      widest = std::max(widest, metrics.horizontalAdvance(line));
  }
  const int fits = std::max(1, width / (widest + 6));
  int step = 1;
  while (count / step > fits) step = step == 1 ? 2 : (step == 2 ? 5 : step * 2);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < count; i += step) ticker->addTick(i, labels_[i]);
  const bool changed =
      ticker->ticks() != qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker())->ticks();
  if (changed) xAxis->setTicker(ticker);
  return false;
}

void ComputationBarPlot::setExportTitle(const QString& title) {
  // The window's title ends with the export's file name, which says less than the plot does.
  const QString own = QStringLiteral(" · ") + export_name_;
  export_title_ = title.endsWith(own) ? title.left(title.size() - own.size()) : title;
  if (!export_title_.isEmpty() && !slide_heading_.isEmpty())
    export_title_ += QStringLiteral(" · ") + slide_heading_;
  render();
}

ExportResult ComputationBarPlot::exportImage(const QString& path, ImageFormat format,
                                             const ExportSize& size) {
  return PlotExporter::save(this, path, format, size);
}

ExportResult ComputationBarPlot::exportCsv(const QString& path) const {
  return PlotExporter::writeCsv(
      path, {QStringLiteral("label"), QStringLiteral("value")}, [this](QTextStream& out) {
        for (std::size_t i = 0; i < values_.size(); ++i) {
          out << PlotExporter::csvField(i < static_cast<std::size_t>(labels_.size())
                                            ? labels_[static_cast<int>(i)]
                                            : QString::number(i))
              << ',' << QString::number(values_[i], 'g', 7) << '\n';
        }
      });
}

}  // namespace ascope
