#include "widgets/attention/minimal_pair_view.h"

#include "widgets/common/heatmap_view.h"
#include "widgets/common/plot_exporter.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTextStream>
#include <QVBoxLayout>

#include <cmath>

namespace ascope {

namespace {

const LabeledMatrix* headOf(const AttentionPlotData& data, int group, int layer, int head) {
  if (group < 0 || group >= static_cast<int>(data.groups.size())) return nullptr;
  const AttentionPlotGroup& g = data.groups[static_cast<size_t>(group)];
  if (layer < 0 || layer >= g.layerCount() || head < 0 || head >= g.headCount(layer))
    return nullptr;
  return &g.layers[static_cast<size_t>(layer)][static_cast<size_t>(head)];
}

}  // namespace

MinimalPairView::MinimalPairView(QWidget* parent) : QWidget(parent) {
  group_box_ = new QComboBox(this);
  group_box_->setObjectName(QStringLiteral("pairGroup"));
  group_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  group_box_->setMinimumContentsLength(6);
  layer_box_ = new QComboBox(this);
  layer_box_->setObjectName(QStringLiteral("pairLayer"));
  head_box_ = new QComboBox(this);
  head_box_->setObjectName(QStringLiteral("pairHead"));
  most_changed_ = new QPushButton(tr("Most changed head"), this);
  most_changed_->setObjectName(QStringLiteral("pairMostChanged"));
  answers_ = new QLabel(this);
  answers_->setObjectName(QStringLiteral("pairAnswers"));
  answers_->setTextFormat(Qt::PlainText);
  answers_->setWordWrap(true);
  change_ = new QLabel(this);
  change_->setObjectName(QStringLiteral("pairChange"));
  change_->setTextFormat(Qt::PlainText);
  change_->setWordWrap(true);
  map_a_ = new HeatmapView(this);
  map_b_ = new HeatmapView(this);
  difference_ = new HeatmapView(this);
  difference_->setGradientKind(HeatmapView::GradientKind::Diverging);
  difference_->setColorScaleLabel(tr("B − A"));
  for (HeatmapView* map : {map_a_, map_b_}) map->setColorScaleLabel(tr("attention weight"));
  for (HeatmapView* map : {map_a_, map_b_, difference_}) {
    // Every token named, as on the enlarged head: a pair is a sentence, not a page.
    map->setDenseLabels(128, 7.0);
    map->setGrowsForLabels(false);
  }
  map_a_->setExportBaseName(QStringLiteral("pair_a"));
  map_b_->setExportBaseName(QStringLiteral("pair_b"));
  difference_->setExportBaseName(QStringLiteral("pair_difference"));

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 2, 6, 0);
  bar->addWidget(group_box_);
  bar->addWidget(layer_box_);
  bar->addWidget(head_box_);
  bar->addWidget(most_changed_);
  bar->addStretch(1);
  // Two by two: A beside B, the difference under A and the words under B. Three maps in a row
  // left each a strip of cells beside its labels on a 1280 × 720 screen.
  auto* words = new QVBoxLayout;
  words->addWidget(answers_);
  words->addWidget(change_);
  words->addStretch(1);
  auto* maps = new QGridLayout;
  maps->addWidget(map_a_, 0, 0);
  maps->addWidget(map_b_, 0, 1);
  maps->addWidget(difference_, 1, 0);
  maps->addLayout(words, 1, 1);
  maps->setColumnStretch(0, 1);
  maps->setColumnStretch(1, 1);
  maps->setRowStretch(0, 1);
  maps->setRowStretch(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addLayout(maps, 1);

  connect(group_box_, &QComboBox::currentIndexChanged, this,
          [this](int g) { showHead(g, layer_, head_); });
  connect(layer_box_, &QComboBox::currentIndexChanged, this,
          [this](int l) { showHead(group_, l, head_); });
  connect(head_box_, &QComboBox::currentIndexChanged, this,
          [this](int h) { showHead(group_, layer_, h); });
  connect(most_changed_, &QPushButton::clicked, this, [this] {
    if (data_.ranking.isEmpty()) return;
    const MinimalPairPlotData::HeadChange& top = data_.ranking.front();
    showHead(top.group, top.layer, top.head);
  });
}

void MinimalPairView::setPair(MinimalPairPlotData data) {
  data_ = std::move(data);
  answers_->setText(tr("A: “%1” → %2\nB: “%3” → %4")
                        .arg(data_.input_a, data_.answer_a, data_.input_b, data_.answer_b));
  showHead(group_, layer_, head_);
}

void MinimalPairView::showHead(int group, int layer, int head) {
  const int groups = static_cast<int>(data_.a.groups.size());
  group_ = std::clamp(group, 0, std::max(0, groups - 1));
  const AttentionPlotGroup* g = groups > 0 ? &data_.a.groups[static_cast<size_t>(group_)] : nullptr;
  layer_ = std::clamp(layer, 0, std::max(0, g ? g->layerCount() - 1 : 0));
  head_ = std::clamp(head, 0, std::max(0, g ? g->headCount(layer_) - 1 : 0));
  fillSelectors();
  draw();
}

void MinimalPairView::fillSelectors() {
  const QSignalBlocker block_groups(group_box_);
  const QSignalBlocker block_layers(layer_box_);
  const QSignalBlocker block_heads(head_box_);
  group_box_->clear();
  for (const AttentionPlotGroup& g : data_.a.groups) group_box_->addItem(g.name);
  group_box_->setCurrentIndex(group_);
  layer_box_->clear();
  head_box_->clear();
  if (group_ < static_cast<int>(data_.a.groups.size())) {
    const AttentionPlotGroup& g = data_.a.groups[static_cast<size_t>(group_)];
    for (int l = 0; l < g.layerCount(); ++l) layer_box_->addItem(tr("layer %1").arg(l));
    for (int h = 0; h < g.headCount(layer_); ++h) head_box_->addItem(tr("head %1").arg(h));
  }
  layer_box_->setCurrentIndex(layer_);
  head_box_->setCurrentIndex(head_);
}

void MinimalPairView::draw() {
  const LabeledMatrix* a = headOf(data_.a, group_, layer_, head_);
  const LabeledMatrix* b = headOf(data_.b, group_, layer_, head_);
  const LabeledMatrix* d = headOf(data_.difference, group_, layer_, head_);
  if (!a || !b || !d) {
    for (HeatmapView* map : {map_a_, map_b_, difference_}) map->clear();
    change_->setText(tr("No attention to compare."));
    return;
  }
  const AttentionPlotGroup& g = data_.a.groups[static_cast<size_t>(group_)];
  // Both sides on one scale, so a cell's colour means the same weight in A and in B.
  const float top = std::max(a->finiteRange().second, b->finiteRange().second);
  for (auto [map, m, side] : {std::tuple{map_a_, a, tr("A")}, std::tuple{map_b_, b, tr("B")}}) {
    map->setTitle(tr("%1 · %2 · layer %3 · head %4").arg(side, g.name).arg(layer_).arg(head_));
    map->setAxisTitles(g.key_title, g.query_title);
    map->setFixedRange(0.0, top > 0 ? top : 1.0);
    map->setMatrix(*m);
  }
  const auto [low, high] = d->finiteRange();
  const double scale = std::max({std::abs(low), std::abs(high), 1e-3f});
  difference_->setTitle(tr("B − A"));
  difference_->setAxisTitles(g.key_title, g.query_title);
  difference_->setFixedRange(-scale, scale);
  difference_->setMatrix(*d);
  QString text;
  for (const MinimalPairPlotData::HeadChange& c : data_.ranking) {
    if (c.group != group_ || c.layer != layer_ || c.head != head_) continue;
    text = tr("This head moved %1 (0: alike, 1: no weight in common), most at “%2” (%3).")
               .arg(c.change, 0, 'f', 3)
               .arg(c.query)
               .arg(c.distance, 0, 'f', 3);
  }
  if (!data_.ranking.isEmpty()) {
    const MinimalPairPlotData::HeadChange& top_change = data_.ranking.front();
    text += tr(" Most changed: %1 · layer %2 · head %3 (%4).")
                .arg(data_.a.groups[static_cast<size_t>(top_change.group)].name)
                .arg(top_change.layer)
                .arg(top_change.head)
                .arg(top_change.change, 0, 'f', 3);
  }
  change_->setText(text.trimmed());
}

QString MinimalPairView::exportBaseName() const {
  return QStringLiteral("minimal_pair_layer%1_head%2").arg(layer_).arg(head_);
}

ExportResult MinimalPairView::exportImage(const QString& path, ImageFormat format,
                                          const ExportSize& size) {
  return PlotExporter::saveWidget(this, path, format, size);
}

ExportResult MinimalPairView::exportCsv(const QString& path) const {
  const LabeledMatrix* d = headOf(data_.difference, group_, layer_, head_);
  if (!d) return ExportResult::failure(tr("No minimal pair to export."));
  return difference_->exportCsv(path);
}

}  // namespace ascope
