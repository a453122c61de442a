#include "app/gui/window/dialogs/run_comparison_window.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScreen>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdlib>

#include "app/gui/views/curves/metric_series_conversion.h"
#include "widgets/attention/attention_difference.h"
#include "widgets/common/heatmap_view.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/run_overlay_plot.h"

namespace ascope {
namespace {

/// A difference map of two identical runs still needs a colour range.
constexpr double kSmallestScale = 1e-6;

std::vector<SeriesPoint> validationPoints(const std::vector<EpochSummary>& epochs, bool accuracy) {
  std::vector<SeriesPoint> points;
  for (const EpochSummary& e : epochs) {
    points.push_back({static_cast<double>(e.step), accuracy ? e.val_accuracy : e.val_loss});
  }
  return points;
}

const LabeledMatrix* headOf(const std::optional<AttentionPlotData>& data, const QString& group,
                            int layer, int head) {
  if (!data) return nullptr;
  for (const AttentionPlotGroup& g : data->groups) {
    if (g.name != group || layer >= g.layerCount() || head >= g.headCount(layer)) continue;
    return &g.layers[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)];
  }
  return nullptr;
}

}  // namespace

RunComparisonWindow::RunComparisonWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
  setObjectName(QStringLiteral("runComparison"));
  setWindowTitle(tr("Compare runs"));
  title_ = new QLabel(this);
  title_->setTextFormat(Qt::RichText);
  loss_ = new RunOverlayPlot(tr("loss"), this);
  loss_->setLogScale(true);
  accuracy_ = new RunOverlayPlot(tr("accuracy"), this);
  settings_ = new QTableWidget(0, 3, this);
  settings_->setObjectName(QStringLiteral("differingSettings"));
  settings_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  settings_->verticalHeader()->hide();
  settings_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  settings_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);

  step_box_ = new QComboBox(this);
  probe_box_ = new QComboBox(this);
  group_box_ = new QComboBox(this);
  group_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  layer_box_ = new QSpinBox(this);
  head_box_ = new QSpinBox(this);
  map_a_ = new HeatmapView(this);
  map_b_ = new HeatmapView(this);
  difference_ = new HeatmapView(this);
  difference_->setGradientKind(HeatmapView::GradientKind::Diverging);
  difference_->setColorScaleLabel(tr("A − B"));
  difference_->setExportBaseName(QStringLiteral("compare_difference"));
  for (HeatmapView* map : {map_a_, map_b_, difference_}) map->setMinimumSize(200, 200);
  problem_ = new QLabel(this);
  problem_->setWordWrap(true);
  problem_->setObjectName(QStringLiteral("comparisonProblem"));

  auto* choices = new QHBoxLayout;
  choices->addWidget(new QLabel(tr("Step"), this));
  choices->addWidget(step_box_);
  choices->addWidget(new QLabel(tr("Probe sample"), this));
  choices->addWidget(probe_box_, 1);
  choices->addWidget(new QLabel(tr("Attention"), this));
  choices->addWidget(group_box_);
  choices->addWidget(new QLabel(tr("layer"), this));
  choices->addWidget(layer_box_);
  choices->addWidget(new QLabel(tr("head"), this));
  choices->addWidget(head_box_);
  auto* maps = new QHBoxLayout;
  maps->addWidget(map_a_);
  maps->addWidget(map_b_);
  maps->addWidget(difference_);
  auto* attention = new QWidget(this);
  auto* attention_layout = new QVBoxLayout(attention);
  attention_layout->addLayout(choices);
  attention_layout->addLayout(maps, 1);
  attention_layout->addWidget(problem_);

  // The curves and the settings in a row above; the three maps get the window's whole width
  // below (side by side with the curves they were 130 px wide at 1280 × 720).
  auto* curves = new QSplitter(Qt::Horizontal, this);
  curves->addWidget(loss_);
  curves->addWidget(accuracy_);
  auto* settings_box = new QWidget(this);
  auto* settings_layout = new QVBoxLayout(settings_box);
  settings_layout->setContentsMargins(0, 0, 0, 0);
  settings_layout->addWidget(new QLabel(tr("Settings that differ"), this));
  settings_layout->addWidget(settings_);
  curves->addWidget(settings_box);
  curves->setStretchFactor(0, 3);
  curves->setStretchFactor(1, 3);
  curves->setStretchFactor(2, 2);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(curves);
  split->addWidget(attention);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addWidget(split, 1);
  // 1600 x 1000 where the screen has room, never more than nine tenths of it: on a 1280 x 720
  // projector (2400 x 1500 px at 150 %) the A - B map and the close button were off screen.
  const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen();
  const QRect room = screen ? screen->availableGeometry() : QRect(0, 0, 1600, 1000);
  resize(std::min(1600, room.width() * 9 / 10), std::min(1000, room.height() * 9 / 10));
  if (screen) move(room.center() - rect().center());
  // Esc closes it, as it closes a dialog.
  connect(new QShortcut(QKeySequence::Cancel, this), &QShortcut::activated, this, &QWidget::close);

  connect(&load_watcher_, &QFutureWatcher<RunComparisonData>::finished, this,
          &RunComparisonWindow::onLoaded);
  connect(&step_watcher_, &QFutureWatcher<ComparedStep>::finished, this,
          &RunComparisonWindow::onStepLoaded);
  connect(step_box_, qOverload<int>(&QComboBox::activated), this, [this] { loadStep(); });
  connect(probe_box_, qOverload<int>(&QComboBox::activated), this,
          &RunComparisonWindow::setProbeIndex);
  connect(group_box_, qOverload<int>(&QComboBox::activated), this, [this] { showHead(); });
  connect(layer_box_, qOverload<int>(&QSpinBox::valueChanged), this, [this] { showHead(); });
  connect(head_box_, qOverload<int>(&QSpinBox::valueChanged), this, [this] { showHead(); });
}

RunComparisonWindow::~RunComparisonWindow() {
  load_watcher_.waitForFinished();
  step_watcher_.waitForFinished();
}

void RunComparisonWindow::compare(const QString& dir_a, const QString& dir_b, long long step) {
  load_watcher_.waitForFinished();  // a second comparison while one loads: the newest wins
  loading_ = true;
  wanted_step_ = step;
  title_->setText(tr("Reading %1 and %2…").arg(dir_a.toHtmlEscaped(), dir_b.toHtmlEscaped()));
  load_watcher_.setFuture(
      QtConcurrent::run([dir_a, dir_b] { return loadRunComparison(dir_a, dir_b); }));
}

void RunComparisonWindow::onLoaded() {
  if (!loading_) return;
  loading_ = false;
  data_ = load_watcher_.result();
  if (!data_.error.isEmpty()) {
    title_->setText(tr("Cannot compare: %1").arg(data_.error.toHtmlEscaped()));
    Q_EMIT failed(data_.error);
    return;
  }
  title_->setText(tr("<b>A</b> %1 &nbsp;·&nbsp; <b>B</b> %2")
                      .arg(data_.a.name.toHtmlEscaped(), data_.b.name.toHtmlEscaped()));
  setWindowTitle(tr("Compare %1 with %2").arg(data_.a.name, data_.b.name));
  fillCurves();
  fillSettings();
  {
    const QSignalBlocker block(step_box_);
    step_box_->clear();
    for (const auto& [fa, fb] : data_.paired) {
      step_box_->addItem(tr("step %1").arg(fa.step), static_cast<qlonglong>(fa.step));
    }
    step_box_->setCurrentIndex(nearestStepIndex(wanted_step_));
  }
  if (data_.paired.empty()) {
    problem_->setText(
        tr("The runs have no attention snapshot of the same step, so their "
           "attention cannot be compared."));
    for (HeatmapView* map : {map_a_, map_b_, difference_}) map->clear();
  } else {
    loadStep();
  }
  Q_EMIT compared();
}

void RunComparisonWindow::fillCurves() {
  loss_->setSeries({{tr("A %1 train").arg(data_.a.name), lossPoints(data_.a.steps), true},
                    {tr("B %1 train").arg(data_.b.name), lossPoints(data_.b.steps), true},
                    {tr("A validation"), validationPoints(data_.a.epochs, false)},
                    {tr("B validation"), validationPoints(data_.b.epochs, false)}});
  accuracy_->setSeries({{tr("A %1 train").arg(data_.a.name), accuracyPoints(data_.a.steps), true},
                        {tr("B %1 train").arg(data_.b.name), accuracyPoints(data_.b.steps), true},
                        {tr("A validation"), validationPoints(data_.a.epochs, true)},
                        {tr("B validation"), validationPoints(data_.b.epochs, true)}});
}

void RunComparisonWindow::setSmoothing(double weight) {
  loss_->setSmoothing(weight);
  accuracy_->setSmoothing(weight);
}

int RunComparisonWindow::nearestStepIndex(long long step) const {
  int chosen = step_box_->count() - 1;  // the newest common step, unless one was asked for
  for (int i = 0; step >= 0 && i < step_box_->count(); ++i) {
    const long long at = step_box_->itemData(i).toLongLong();
    const long long best = step_box_->itemData(chosen).toLongLong();
    if (std::llabs(at - step) < std::llabs(best - step)) chosen = i;
  }
  return chosen;
}

void RunComparisonWindow::showNearestStep(long long step) {
  if (loading_) {
    wanted_step_ = step;  // applied once the runs are read
    return;
  }
  const int index = nearestStepIndex(step);
  if (index < 0 || index == step_box_->currentIndex()) return;
  step_box_->setCurrentIndex(index);
  loadStep();
}

void RunComparisonWindow::fillSettings() {
  settings_->clearContents();
  settings_->setHorizontalHeaderLabels({tr("setting"), tr("A"), tr("B")});
  settings_->setRowCount(static_cast<int>(data_.settings.size()));
  for (int r = 0; r < settings_->rowCount(); ++r) {
    const SettingDifference& d = data_.settings[static_cast<std::size_t>(r)];
    QString key = QString::fromStdString(d.key).mid(1).replace(QLatin1Char('/'), QLatin1Char('.'));
    settings_->setItem(r, 0, new QTableWidgetItem(key));
    settings_->setItem(
        r, 1, new QTableWidgetItem(d.a.empty() ? tr("(absent)") : QString::fromStdString(d.a)));
    settings_->setItem(
        r, 2, new QTableWidgetItem(d.b.empty() ? tr("(absent)") : QString::fromStdString(d.b)));
  }
}

void RunComparisonWindow::showStep(long long step) {
  const int index = step_box_->findData(static_cast<qlonglong>(step));
  if (index < 0) return;
  step_box_->setCurrentIndex(index);
  loadStep();
}

void RunComparisonWindow::setProbeIndex(int index) {
  probe_index_ = std::max(0, index);
  loadStep();
}

void RunComparisonWindow::loadStep() {
  const int index = step_box_->currentIndex();
  if (index < 0 || index >= static_cast<int>(data_.paired.size())) return;
  if (step_watcher_.isRunning()) {
    step_again_ = true;
    return;
  }
  step_again_ = false;
  loading_step_ = true;
  const auto& [fa, fb] = data_.paired[static_cast<std::size_t>(index)];
  step_watcher_.setFuture(
      QtConcurrent::run([a = QString::fromStdString(fa.path), b = QString::fromStdString(fb.path),
                         probe = probe_index_] { return loadComparedStep(a, b, probe); }));
}

void RunComparisonWindow::onStepLoaded() {
  if (!loading_step_) return;
  loading_step_ = false;
  if (step_again_) {
    loadStep();
    return;
  }
  step_ = step_watcher_.result();
  {
    const QSignalBlocker block(probe_box_);
    probe_box_->clear();
    probe_box_->addItems(step_.captions);
    if (step_.sample_count > 0) {
      probe_box_->setCurrentIndex(std::clamp(probe_index_, 0, step_.sample_count - 1));
    }
  }
  const QString group = group_box_->currentText();
  {
    const QSignalBlocker block(group_box_);
    group_box_->clear();
    if (step_.a) {
      for (const AttentionPlotGroup& g : step_.a->groups) group_box_->addItem(g.name);
    }
    const int kept = group_box_->findText(group);
    group_box_->setCurrentIndex(kept >= 0 ? kept : 0);
  }
  showHead();
}

void RunComparisonWindow::setHead(int group, int layer, int head) {
  {
    const QSignalBlocker block_group(group_box_);
    const QSignalBlocker block_layer(layer_box_);
    const QSignalBlocker block_head(head_box_);
    group_box_->setCurrentIndex(group);
    layer_box_->setMaximum(std::max(layer, layer_box_->maximum()));
    layer_box_->setValue(layer);
    head_box_->setMaximum(std::max(head, head_box_->maximum()));
    head_box_->setValue(head);
  }
  showHead();
}

void RunComparisonWindow::showHead() {
  const QString group = group_box_->currentText();
  int layers = 0;
  int heads = 0;
  if (step_.a) {
    for (const AttentionPlotGroup& g : step_.a->groups) {
      if (g.name != group) continue;
      layers = g.layerCount();
      heads = layers > 0 ? g.headCount(std::min(layer_box_->value(), layers - 1)) : 0;
    }
  }
  {
    const QSignalBlocker block_layer(layer_box_);
    const QSignalBlocker block_head(head_box_);
    layer_box_->setRange(0, std::max(0, layers - 1));
    head_box_->setRange(0, std::max(0, heads - 1));
  }
  const int layer = layer_box_->value();
  const int head = head_box_->value();
  const LabeledMatrix* a = headOf(step_.a, group, layer, head);
  const LabeledMatrix* b = headOf(step_.b, group, layer, head);
  const QString where =
      tr("%1 · layer %2 head %3 · step %4").arg(group).arg(layer).arg(head).arg(step_.step);
  // A and B on one 0..max scale, so that brighter means more weight in either picture.
  double top = 0.0;
  for (const LabeledMatrix* m : {a, b}) {
    if (m) top = std::max<double>(top, m->finiteRange().second);
  }
  map_a_->setTitle(tr("A: %1").arg(data_.a.name));
  map_b_->setTitle(tr("B: %1").arg(data_.b.name));
  for (auto [map, m] : {std::pair{map_a_, a}, std::pair{map_b_, b}}) {
    if (m) {
      map->setMatrix(*m);
      map->setFixedRange(0.0, top > 0 ? top : 1.0);
    } else {
      map->clear();
    }
  }
  QString problem = step_.problem;
  difference_->setTitle(tr("A − B"));
  if (problem.isEmpty() && a && b) {
    AttentionDifference d = attentionDifference(*a, *b);
    problem = d.problem;
    if (problem.isEmpty()) {
      // One scale per group for the whole comparison (every paired step, layer and head).
      scale_ = std::max(data_.scale.value(group, 0.0), kSmallestScale);
      difference_->setMatrix(std::move(d.matrix));
      difference_->setFixedRange(-scale_, scale_);
    }
  } else if (problem.isEmpty()) {
    problem = tr("The group %1 is not in both runs.").arg(group);
  }
  if (!problem.isEmpty()) difference_->clear();
  problem_->setText(where + QStringLiteral(" — ") +
                    (problem.isEmpty()
                         ? tr("Red: more weight in A; blue: more in B. Colour scale ±%1, the "
                              "largest difference anywhere in this group, at any step.")
                               .arg(scale_, 0, 'g', 3)
                         : problem));
}

void RunComparisonWindow::waitForLoad() {
  while (loading_ || loading_step_) {
    load_watcher_.waitForFinished();
    step_watcher_.waitForFinished();
    QCoreApplication::processEvents();
  }
}

void RunComparisonWindow::replotNow() {
  QCoreApplication::processEvents();
  for (QCustomPlot* plot : findChildren<QCustomPlot*>()) plot->replot();
}

}  // namespace ascope
