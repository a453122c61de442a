#include "widgets/curves/metric_curve_panel.h"

#include "widgets/common/export_menu.h"
#include "widgets/common/fitting_label.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/curve_event_markers.h"
#include "widgets/curves/log_axis_ticker.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ascope {
namespace {

constexpr double kPickRadiusPx = 12.0;
/// How close to the cursor a press grabs it, and how far a click may move and still be a click.
constexpr int kCursorGrabPx = 6;
constexpr int kClickSlopPx = 4;

void fillGraph(QCPGraph* graph, const DecimatingSeries& series) {
  QVector<QCPGraphData> data;
  data.reserve(series.size());
  series.forEach([&data](const SeriesPoint& p) { data.append(QCPGraphData(p.x, p.y)); });
  graph->data()->set(data, true);
}

QString formatValue(double v) {
  return QString::number(v, 'g', 4);
}

/// The last kept point at or before `step` (the first point when all are later).
SeriesPoint pointAtOrBefore(const DecimatingSeries& series, double step) {
  SeriesPoint found = series.first();
  series.forEach([&found, step](const SeriesPoint& p) {
    if (p.x <= step) found = p;
  });
  return found;
}

}  // namespace

MetricCurvePanel::MetricCurvePanel(const QString& metric_name, QWidget* parent)
    : QWidget(parent), metric_name_(metric_name) {
  plot_ = new ThemedPlot(this);
  plot_->setEmptyHint(tr("Curves appear when training starts"));
  plot_->setEmptyState(true);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  plot_->xAxis->setLabel(tr("step"));
  plot_->yAxis->setLabel(metric_name_);
  plot_->xAxis2->setVisible(true);  // closed frame; ticks only on the left/bottom
  plot_->yAxis2->setVisible(true);
  plot_->xAxis2->setTicks(false);
  plot_->yAxis2->setTicks(false);
  plot_->xAxis2->setTickLabels(false);
  plot_->yAxis2->setTickLabels(false);
  plot_->yAxis->grid()->setSubGridVisible(false);

  raw_graph_ = plot_->addGraph();
  raw_graph_->setName(tr("train"));
  smoothed_graph_ = plot_->addGraph();
  smoothed_graph_->setName(tr("train (smoothed)"));
  validation_graph_ = plot_->addGraph();
  validation_graph_->setName(tr("validation"));
  // On the right-hand axis: a figure of another scale (BLEU 0–100 beside an accuracy 0–1).
  figure_graph_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  figure_graph_->setLineStyle(QCPGraph::lsLine);
  figure_graph_->removeFromLegend();
  test_graph_ = plot_->addGraph();
  test_name_ = tr("test");
  test_graph_->setName(tr("test split"));
  test_graph_->setLineStyle(QCPGraph::lsNone);  // one point: the marker is the whole graph
  test_graph_->removeFromLegend();              // until a run has its test figure
  raw_graph_->setAdaptiveSampling(true);        // keeps 20k-point series cheap to draw
  smoothed_graph_->setAdaptiveSampling(true);
  plot_->placeLegendAbove();
  test_label_ = new QCPItemText(plot_);
  // In a corner of the plot, not beside the marker: the marker sits at the run's last step, where
  // the curves end, and a label left of it hid their last 15–25 % and the last validation point.
  test_label_->position->setType(QCPItemPosition::ptAxisRectRatio);
  test_label_->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
  test_label_->setPadding(QMargins(2, 2, 2, 2));
  test_label_->setSelectable(false);
  test_label_->setVisible(false);
  event_markers_ = new CurveEventMarkers(plot_);
  cursor_ = new QCPItemStraightLine(plot_);
  cursor_->setVisible(false);
  cursor_->setSelectable(false);

  // Shortened when the dock is narrow (1280 × 720, 150 %, or a zoomed font), never wrapped: a
  // wrapped readout took the rows the plot needs.
  readout_ = new FittingLabel(this);
  readout_->setObjectName(QStringLiteral("curveReadout"));
  readout_->setTextFormat(Qt::RichText);
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  smoothing_box_ = new QDoubleSpinBox(this);
  smoothing_box_->setObjectName(QStringLiteral("smoothingBox"));
  smoothing_box_->setRange(0.0, 0.999);
  smoothing_box_->setSingleStep(0.05);
  smoothing_box_->setDecimals(3);
  smoothing_box_->setValue(ema_.weight());
  smoothing_box_->setToolTip(tr("Exponential moving average weight of the past (0 = off)"));
  log_box_ = new QCheckBox(tr("Log scale"), this);
  log_box_->setToolTip(tr("Logarithmic y axis"));

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 2, 6, 0);
  bar->addWidget(readout_, 1);
  bar->addWidget(new QLabel(tr("Smoothing"), this));
  bar->addWidget(smoothing_box_);
  bar->addSpacing(8);
  bar->addWidget(log_box_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(plot_, 1);

  connect(plot_, &QCustomPlot::beforeReplot, this, &MetricCurvePanel::syncGraphs);
  connect(plot_, &ThemedPlot::themeChanged, this, &MetricCurvePanel::applyTheme);
  connect(plot_, &QCustomPlot::mouseMove, this, &MetricCurvePanel::onMouseMove);
  connect(plot_, &QCustomPlot::mousePress, this, &MetricCurvePanel::onMousePress);
  connect(plot_, &QCustomPlot::mouseRelease, this, &MetricCurvePanel::onMouseRelease);
  connect(plot_, &QCustomPlot::mouseWheel, this, [this] { following_ = false; });
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
  connect(plot_, &QWidget::customContextMenuRequested, this, &MetricCurvePanel::showContextMenu);
  connect(smoothing_box_, &QDoubleSpinBox::valueChanged, this, &MetricCurvePanel::setSmoothing);
  connect(log_box_, &QCheckBox::toggled, this, &MetricCurvePanel::setLogScale);
  applyTheme(plot_->theme());
}

void MetricCurvePanel::setMetricName(const QString& name) {
  metric_name_ = name;
  plot_->yAxis->setLabel(name);
  markDirty();
}

void MetricCurvePanel::appendTrainPoint(double step, double value) {
  train_.append(step, value);
  smoothed_.append(step, ema_.add(value));
  markDirty();
}

void MetricCurvePanel::appendTrainPoints(const std::vector<SeriesPoint>& points) {
  for (const SeriesPoint& p : points) {
    train_.append(p.x, p.y);
    smoothed_.append(p.x, ema_.add(p.y));
  }
  markDirty();
}

void MetricCurvePanel::appendValidationPoint(double step, double value) {
  validation_.append(step, value);
  markDirty();
}

void MetricCurvePanel::setFigureName(const QString& name) {
  figure_name_ = name;
  figure_graph_->setName(tr("validation %1").arg(name));
  plot_->yAxis2->setLabel(name);
  markDirty();
}

void MetricCurvePanel::appendFigurePoint(double step, double value) {
  if (!std::isfinite(value)) return;  // a diverged run's figure: nothing to draw
  figure_.append(step, value);
  markDirty();
}

void MetricCurvePanel::setTestPoint(double step, double value, const QString& name) {
  test_ = SeriesPoint{step, value};
  test_name_ = name.isEmpty() ? tr("test") : name;
  test_graph_->setName(name.isEmpty() ? tr("test split") : name);
  markDirty();
}

void MetricCurvePanel::clear() {
  train_.clear();
  smoothed_.clear();
  validation_.clear();
  figure_.clear();
  test_.reset();
  ema_.reset();
  event_markers_->clear();
  following_ = true;
  markDirty();
}

void MetricCurvePanel::addEventMarker(double step, const QString& text) {
  event_markers_->add(step, text);
}

void MetricCurvePanel::setSmoothing(double weight) {
  ema_.setWeight(weight);
  {
    const QSignalBlocker block(smoothing_box_);
    smoothing_box_->setValue(ema_.weight());
  }
  // The EMA is replayed over the kept points; where history was decimated this is an
  // approximation of the full-resolution EMA, which is fine for a display.
  smoothed_.clear();
  train_.forEach([this](const SeriesPoint& p) { smoothed_.append(p.x, ema_.add(p.y)); });
  markDirty();
}

void MetricCurvePanel::setLogScale(bool on) {
  if (on == log_scale_) return;
  log_scale_ = on;
  {
    const QSignalBlocker block(log_box_);
    log_box_->setChecked(on);
  }
  QCPAxis* y = plot_->yAxis;
  if (on) {
    y->setScaleType(QCPAxis::stLogarithmic);
    y->setTicker(QSharedPointer<LogAxisTicker>::create());
    y->setNumberFormat(QStringLiteral("gb"));
    y->grid()->setSubGridVisible(true);
  } else {
    y->setScaleType(QCPAxis::stLinear);
    y->setTicker(QSharedPointer<QCPAxisTicker>::create());
    y->setNumberFormat(QStringLiteral("g"));
    y->grid()->setSubGridVisible(false);
  }
  rescaleToData();
  markDirty();
  Q_EMIT logScaleChanged(on);
}

void MetricCurvePanel::setCursorStep(double step) {
  cursor_step_ = step < 0 || !std::isfinite(step) ? -1 : step;
  cursor_->setVisible(cursor_step_ >= 0);
  cursor_->point1->setCoords(std::max(0.0, cursor_step_), 0);
  cursor_->point2->setCoords(std::max(0.0, cursor_step_), 1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MetricCurvePanel::setReadoutStep(double step) {
  readout_step_ = step < 0 || !std::isfinite(step) ? -1 : step;
  updateReadout();
}

void MetricCurvePanel::resetView() {
  following_ = true;
  rescaleToData();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MetricCurvePanel::markDirty() {
  dirty_ = true;
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MetricCurvePanel::syncGraphs() {
  if (!dirty_) return;
  dirty_ = false;
  fillGraph(raw_graph_, train_);
  fillGraph(smoothed_graph_, smoothed_);
  fillGraph(validation_graph_, validation_);
  fillGraph(figure_graph_, figure_);
  fillTestGraph();
  validation_graph_->removeFromLegend();
  if (!validation_.empty()) validation_graph_->addToLegend();
  const bool figure = !figure_name_.isEmpty() && !figure_.empty();
  figure_graph_->setVisible(figure);
  figure_graph_->removeFromLegend();
  if (figure) figure_graph_->addToLegend();
  plot_->yAxis2->setTicks(figure);
  plot_->yAxis2->setTickLabels(figure);
  test_graph_->removeFromLegend();
  if (test_) test_graph_->addToLegend();
  test_label_->setVisible(test_.has_value());
  if (test_) {
    test_label_->setText(QStringLiteral("%1 %2").arg(test_name_, formatValue(test_->y)));
  }
  plot_->setEmptyState(train_.empty() && validation_.empty() && !test_);
  if (following_) rescaleToData();
  if (test_) {
    // The corner on the other side from the marker: the curves end near its height, so the top
    // right is free when it sits low (a loss), the bottom right when it sits high (an accuracy).
    const QCPRange range = plot_->yAxis->range();
    double height = 0.5;  // of the marker, as a share of the plot's
    if (log_scale_ && range.lower > 0 && test_->y > 0 && range.upper > range.lower) {
      height = std::log(test_->y / range.lower) / std::log(range.upper / range.lower);
    } else if (range.size() > 0) {
      height = (test_->y - range.lower) / range.size();
    }
    const bool high = height > 0.5;
    test_label_->position->setCoords(0.995, high ? 0.99 : 0.01);
    test_label_->setPositionAlignment(Qt::AlignRight | (high ? Qt::AlignBottom : Qt::AlignTop));
  }
  updateReadout();
}

void MetricCurvePanel::fillTestGraph() {
  test_graph_->data()->clear();
  if (test_) test_graph_->addData(test_->x, test_->y);
}

void MetricCurvePanel::rescaleToData() {
  // syncGraphs may not have run yet; make sure the graphs hold the current data
  if (dirty_) {
    fillGraph(raw_graph_, train_);
    fillGraph(smoothed_graph_, smoothed_);
    fillGraph(validation_graph_, validation_);
    fillTestGraph();
  }
  const QCP::SignDomain domain = log_scale_ ? QCP::sdPositive : QCP::sdBoth;
  QCPRange keys, values;
  bool have_keys = false, have_values = false;
  for (QCPGraph* g : {raw_graph_, smoothed_graph_, validation_graph_, test_graph_}) {
    bool found = false;
    const QCPRange k = g->getKeyRange(found, QCP::sdBoth);
    if (found)
      keys = have_keys ? QCPRange(std::min(keys.lower, k.lower), std::max(keys.upper, k.upper)) : k;
    have_keys |= found;
    const QCPRange v = g->getValueRange(found, domain);
    if (found)
      values = have_values
                   ? QCPRange(std::min(values.lower, v.lower), std::max(values.upper, v.upper))
                   : v;
    have_values |= found;
  }
  if (!have_keys || !have_values) return;
  if (keys.size() <= 0) keys = QCPRange(keys.lower - 1, keys.upper + 1);
  // Steps start near zero; anchoring the axis there reads better than starting at step 1.
  const double x_lower = keys.lower >= 0 && keys.lower < 0.05 * keys.upper ? 0.0 : keys.lower;
  plot_->xAxis->setRange(x_lower, keys.upper + (keys.upper - x_lower) * 0.02);
  bool figure_found = false;
  const QCPRange f = figure_graph_->getValueRange(figure_found, QCP::sdBoth);
  if (figure_found) {
    const double pad = f.size() > 0 ? f.size() * 0.06 : std::max(0.05, std::fabs(f.upper) * 0.1);
    plot_->yAxis2->setRange(f.lower - pad, f.upper + pad);
  }
  if (log_scale_) {
    plot_->yAxis->setRange(values.lower / 1.25, values.upper * 1.25);
  } else {
    const double pad = values.size() > 0 ? values.size() * 0.06 : std::max(0.05, values.upper);
    plot_->yAxis->setRange(values.lower - pad, values.upper + pad);
  }
}

void MetricCurvePanel::applyTheme(const PlotTheme& theme) {
  raw_graph_->setPen(QPen(theme.withAlpha(theme.train, theme.dark ? 80 : 70), 1.0));
  smoothed_graph_->setPen(QPen(theme.smoothed, 2.2));
  validation_graph_->setPen(QPen(theme.validation, 2.0));
  validation_graph_->setScatterStyle(QCPScatterStyle(
      QCPScatterStyle::ssCircle, QPen(theme.background, 1.5), QBrush(theme.validation), 9));
  const QColor figure = theme.categorical.value(2, theme.foreground);
  figure_graph_->setPen(QPen(figure, 2.0, Qt::DashLine));
  figure_graph_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(theme.background, 1.5), QBrush(figure), 8));
  // Not the validation colour: the test figure is a different measurement (every held-out sample,
  // maybe other weights), and must not read as one more validation point.
  const QColor test = theme.categorical.value(4, theme.foreground);
  test_graph_->setPen(QPen(test, 2.0));
  test_graph_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(theme.background, 1.5), QBrush(test), 14));
  test_label_->setColor(test);
  // The curve ends where the figure is written: a backing of the plot's own colour keeps the
  // figure readable over it (a slide shows it from the back of the room).
  test_label_->setBrush(QBrush(theme.withAlpha(theme.background, 215)));
  QFont label_font = theme.font;
  label_font.setBold(true);
  test_label_->setFont(label_font);
  QPen cursor_pen(theme.foreground, 1.6, Qt::DashLine);
  cursor_->setPen(cursor_pen);
  updateReadout();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MetricCurvePanel::updateReadout() {
  if (train_.empty() && validation_.empty() && !test_) {
    readout_->setVersions({});
    return;
  }
  const PlotTheme& t = plot_->theme();
  // A replayed step: the figures of that step, as the live view showed them then.
  const bool at_cursor = readout_step_ >= 0 && readout_step_ < lastStep();
  const auto shown = [this, at_cursor](const DecimatingSeries& series) {
    return at_cursor ? pointAtOrBefore(series, readout_step_) : series.last();
  };
  // Longest first: every figure named; then the names shortened; then the newest train value
  // and the step only.
  const auto value = [](const QColor& color, double v) {
    return QStringLiteral("<b style='color:%1'>%2</b>").arg(color.name(), formatValue(v));
  };
  const QString step = formatValue(at_cursor ? readout_step_ : lastStep());
  QStringList full, brief, least;
  if (!train_.empty()) {
    const QString v = value(t.smoothed, shown(smoothed_).y);
    full << tr("train %1").arg(v);
    brief << v;
    least << v;
  }
  if (!validation_.empty() && (!at_cursor || validation_.first().x <= readout_step_)) {
    const QString v = value(t.validation, shown(validation_).y);
    full << tr("validation %1").arg(v);
    brief << tr("val %1").arg(v);
    if (train_.empty()) least << v;
  }
  if (!figure_name_.isEmpty() && !figure_.empty() &&
      (!at_cursor || figure_.first().x <= readout_step_)) {
    const QString v = value(t.categorical.value(2, t.foreground), shown(figure_).y);
    full << QStringLiteral("%1 %2").arg(figure_name_.toHtmlEscaped(), v);
    brief << QStringLiteral("%1 %2").arg(figure_name_.toHtmlEscaped(), v);
  }
  if (test_ && !at_cursor) {
    const QString v = value(t.categorical.value(4, t.foreground), test_->y);
    full << QStringLiteral("%1 %2").arg(test_name_, v);
    brief << QStringLiteral("%1 %2").arg(test_name_, v);
  }
  full << tr("step %1").arg(step);
  brief << tr("step %1").arg(step);
  least << tr("@%1").arg(step);
  const QString separator = QStringLiteral(" &nbsp;·&nbsp; ");
  readout_->setVersions(
      {full.join(separator), brief.join(separator), least.join(QStringLiteral(" "))});
}

QString MetricCurvePanel::readoutText() const {
  return readout_->versions().value(0);
}

QString MetricCurvePanel::hoverText(const QPoint& pos) const {
  const QCPAxis* x = plot_->xAxis;
  if (plot_->isEmptyState() || !plot_->axisRect()->rect().contains(pos)) return {};
  double lo = x->pixelToCoord(pos.x() - kPickRadiusPx);
  double hi = x->pixelToCoord(pos.x() + kPickRadiusPx);
  if (lo > hi) std::swap(lo, hi);
  double best = kPickRadiusPx * kPickRadiusPx;
  const QCPGraph* best_graph = nullptr;
  QCPGraphData best_point;
  // The sparse markers first, so that they win ties against the dense training line.
  for (const QCPGraph* g :
       {test_graph_, validation_graph_, figure_graph_, smoothed_graph_, raw_graph_}) {
    if (!g->visible()) continue;
    const auto data = g->data();
    for (auto it = data->findBegin(lo, false); it != data->findEnd(hi, false); ++it) {
      if (!std::isfinite(it->value)) continue;
      const double dx = x->coordToPixel(it->key) - pos.x();
      const double dy = g->valueAxis()->coordToPixel(it->value) - pos.y();
      if (dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        best_graph = g;
        best_point = *it;
      }
    }
  }
  if (!best_graph) return {};
  return tr("<b>step %1</b><br>%2: %3")
      .arg(formatValue(best_point.key), best_graph->name().toHtmlEscaped(),
           formatValue(best_point.value));
}

double MetricCurvePanel::stepAt(int x) const {
  return std::clamp(plot_->xAxis->pixelToCoord(x), 0.0, lastStep());
}

double MetricCurvePanel::lastStep() const {
  return std::max({train_.empty() ? 0.0 : train_.last().x,
                   validation_.empty() ? 0.0 : validation_.last().x, test_ ? test_->x : 0.0});
}

void MetricCurvePanel::onMousePress(QMouseEvent* event) {
  press_pos_ = event->pos();
  dragging_cursor_ = false;
  if (event->button() != Qt::LeftButton || plot_->isEmptyState()) return;
  if (cursor_->visible() &&
      std::abs(plot_->xAxis->coordToPixel(cursor_step_) - event->pos().x()) <= kCursorGrabPx) {
    dragging_cursor_ = true;
    plot_->setInteraction(QCP::iRangeDrag, false);  // this drag scrubs the run, not the view
  }
}

void MetricCurvePanel::onMouseRelease(QMouseEvent* event) {
  const bool was_dragging = dragging_cursor_;
  dragging_cursor_ = false;
  plot_->setInteraction(QCP::iRangeDrag, true);
  if (event->button() != Qt::LeftButton || plot_->isEmptyState()) return;
  if (!plot_->axisRect()->rect().contains(event->pos())) return;
  const bool click = (event->pos() - press_pos_).manhattanLength() <= kClickSlopPx;
  if (was_dragging || click) Q_EMIT stepPicked(stepAt(event->pos().x()));
}

void MetricCurvePanel::onMouseMove(QMouseEvent* event) {
  if (dragging_cursor_ && (event->buttons() & Qt::LeftButton)) {
    setCursorStep(stepAt(event->pos().x()));
    Q_EMIT stepPicked(cursor_step_);
    return;
  }
  if (event->buttons() & Qt::LeftButton) {
    following_ = false;  // the user is panning: stop chasing new data
    plot_->showToolTipAt(event->pos(), QString());
    return;
  }
  plot_->showToolTipAt(event->pos(), hoverText(event->pos()));
}

void MetricCurvePanel::showContextMenu(const QPoint& pos) {
  QMenu menu(this);
  menu.addAction(tr("Reset view"), this, &MetricCurvePanel::resetView);
  QAction* log = menu.addAction(tr("Logarithmic y axis"));
  log->setCheckable(true);
  log->setChecked(log_scale_);
  connect(log, &QAction::toggled, this, &MetricCurvePanel::setLogScale);
  QAction* raw = menu.addAction(tr("Show raw training points"));
  raw->setCheckable(true);
  raw->setChecked(raw_graph_->visible());
  connect(raw, &QAction::toggled, this, [this](bool on) {
    raw_graph_->setVisible(on);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });
  menu.addSeparator();
  ExportMenu::addActions(&menu, this, this);
  menu.exec(plot_->mapToGlobal(pos));
}

QString MetricCurvePanel::exportBaseName() const {
  QString name = metric_name_.toLower();
  name.replace(QLatin1Char(' '), QLatin1Char('_'));
  return name.isEmpty() ? QStringLiteral("metric") : name;
}

ExportResult MetricCurvePanel::exportImage(const QString& path, ImageFormat format,
                                           const ExportSize& size) {
  syncGraphs();
  if (export_title_.isEmpty()) return PlotExporter::save(plot_, path, format, size);
  // A slide shows the figure alone: it says whose run and which step. The row exists
  // only while the figure is drawn; the window keeps the room for the plot.
  plot_->plotLayout()->insertRow(0);
  auto* title = new QCPTextElement(plot_, export_title_, plot_->theme().title_font);
  title->setTextColor(plot_->theme().foreground);
  plot_->plotLayout()->addElement(0, 0, title);
  plot_->plotLayout()->setRowStretchFactor(0, 0.001);
  const ExportResult result = PlotExporter::save(plot_, path, format, size);
  plot_->plotLayout()->remove(title);
  plot_->plotLayout()->simplify();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  return result;
}

ExportResult MetricCurvePanel::exportCsv(const QString& path) const {
  return PlotExporter::writeCsv(
      path, {QStringLiteral("series"), QStringLiteral("step"), metric_name_},
      [this](QTextStream& out) {
        auto write = [&out](const char* series, const DecimatingSeries& s) {
          s.forEach([&](const SeriesPoint& p) {
            out << series << ',' << QString::number(p.x, 'g', 17) << ','
                << QString::number(p.y, 'g', 9) << '\n';
          });
        };
        write("train", train_);
        write("train_smoothed", smoothed_);
        write("validation", validation_);
        // A second figure's rows name it ("validation BLEU"); the value column holds its value.
        if (!figure_name_.isEmpty()) {
          const QString series = QStringLiteral("validation ") + figure_name_;
          figure_.forEach([&](const SeriesPoint& p) {
            out << PlotExporter::csvField(series) << ',' << QString::number(p.x, 'g', 17) << ','
                << QString::number(p.y, 'g', 9) << '\n';
          });
        }
        if (test_) {
          out << "test," << QString::number(test_->x, 'g', 17) << ','
              << QString::number(test_->y, 'g', 9) << '\n';
        }
      });
}

}  // namespace ascope
