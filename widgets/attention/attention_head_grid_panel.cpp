#include "widgets/attention/attention_head_grid_panel.h"

#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/attention/cls_attention_overlay.h"
#include "widgets/attention/prediction_round.h"
#include "widgets/attention/word_attention.h"
#include "widgets/common/combo_tool_tip.h"
#include "widgets/common/empty_hint.h"
#include "widgets/common/export_menu.h"
#include "widgets/common/fitting_label.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/quiz/prediction_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace ascope {

AttentionHeadGridPanel::AttentionHeadGridPanel(QWidget* parent) : QWidget(parent) {
  auto* hint = new EmptyHint(tr("Attention appears after the first probe step"), this);

  group_box_ = new QComboBox(this);
  group_box_->setObjectName(QStringLiteral("groupSelector"));
  group_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  group_box_->setMinimumContentsLength(6);
  followCurrentTextInToolTip(group_box_,
                             tr("Which attention: encoder self, decoder self or cross, and their "
                                "aggregates (mean of heads, rollout)"));
  layer_box_ = new QComboBox(this);
  layer_box_->setObjectName(QStringLiteral("layerSelector"));
  layer_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  layer_box_->setMinimumContentsLength(5);
  head_box_ = new QComboBox(this);
  head_box_->setObjectName(QStringLiteral("headSelector"));
  head_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  head_box_->setMinimumContentsLength(5);
  scale_box_ = new QComboBox(this);
  scale_box_->setObjectName(QStringLiteral("colorScaleSelector"));
  scale_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  scale_box_->setMinimumContentsLength(6);
  scale_box_->addItem(tr("run"), static_cast<int>(AttentionColorScale::Run));
  scale_box_->addItem(tr("fixed 0–1"), static_cast<int>(AttentionColorScale::Fixed));
  scale_box_->addItem(tr("per head"), static_cast<int>(AttentionColorScale::PerHead));
  scale_box_->addItem(tr("per row"), static_cast<int>(AttentionColorScale::PerRow));
  scale_box_->setToolTip(
      tr("Colour scale\n"
         "run: each head up to its largest weight over the run, so steps compare like with "
         "like\n"
         "fixed 0–1: weights on their full range\n"
         "per head: each head up to its own largest weight\n"
         "per row: each query's weights divided by its largest"));
  tokens_box_ = new QComboBox(this);
  tokens_box_->setObjectName(QStringLiteral("tokensSelector"));
  tokens_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  tokens_box_->setMinimumContentsLength(5);
  tokens_box_->addItem(tr("pieces"), false);
  tokens_box_->addItem(tr("words"), true);
  tokens_box_->setToolTip(WordAttention::explanation());
  tokens_box_->hide();  // offered for a snapshot of subword pieces
  step_label_ = new FittingLabel(this);
  step_label_->setForegroundRole(QPalette::PlaceholderText);
  // The row must fit the dock at 1280 × 720 and at 150 %: combos may elide their text and the
  // step (also in the timeline above) may be cut, rather than the dock forcing the window wider.
  step_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  grid_ = new AttentionHeadGrid(this);
  grid_->setContextMenuPolicy(Qt::CustomContextMenu);
  detail_ = new AttentionHeatmapView(this);
  // The enlarged head grows and shrinks with its dock, cells square; where every token's label
  // does not fit, every n-th is shown and the wheel zooms in (at 1280 × 720 a scroll
  // area left a strip of six rows with scroll bars).
  detail_->setGrowsForLabels(false);
  overlay_ = new ClsAttentionOverlay(this);
  overlay_->hide();
  detail_split_ = new QSplitter(Qt::Vertical, this);
  detail_split_->addWidget(detail_);
  detail_split_->addWidget(overlay_);
  detail_split_->setStretchFactor(0, 3);
  detail_split_->setStretchFactor(1, 1);
  auto* split = new QSplitter(Qt::Horizontal, this);
  head_split_ = split;
  split->addWidget(grid_);
  split->addWidget(detail_split_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 2, 6, 0);
  bar->addWidget(group_box_);
  bar->addSpacing(6);
  bar->addWidget(layer_box_);  // its items say "layer 0", "head 0": no label needed
  bar->addWidget(head_box_);
  bar->addSpacing(6);
  bar->addWidget(scale_box_);
  bar->addWidget(tokens_box_);
  bar->addSpacing(6);
  bar->addWidget(step_label_, 1);
  prediction_bar_ = new PredictionBar(this);
  prediction_bar_->hide();
  auto* content = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->setSpacing(2);
  content_layout->addLayout(bar);
  content_layout->addWidget(prediction_bar_);
  content_layout->addWidget(split, 1);

  stack_ = new QStackedWidget(this);
  stack_->addWidget(hint);
  stack_->addWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(group_box_, &QComboBox::currentIndexChanged, this,
          &AttentionHeadGridPanel::setCurrentGroup);
  connect(layer_box_, &QComboBox::currentIndexChanged, this,
          &AttentionHeadGridPanel::setCurrentLayer);
  connect(head_box_, &QComboBox::currentIndexChanged, this,
          &AttentionHeadGridPanel::setCurrentHead);
  connect(scale_box_, &QComboBox::currentIndexChanged, this, [this](int index) {
    setColorScale(static_cast<AttentionColorScale>(scale_box_->itemData(index).toInt()));
  });
  connect(tokens_box_, &QComboBox::currentIndexChanged, this,
          [this](int index) { setShowsWords(tokens_box_->itemData(index).toBool()); });
  connect(grid_, &AttentionHeadGrid::headClicked, this, &AttentionHeadGridPanel::setCurrentHead);
  connect(grid_, &QWidget::customContextMenuRequested, this,
          &AttentionHeadGridPanel::showContextMenu);

  // Clicking a plot gives the panel focus, so the keys work right after choosing a head.
  setFocusPolicy(Qt::StrongFocus);
  grid_->setFocusPolicy(Qt::StrongFocus);
  detail_->setFocusPolicy(Qt::StrongFocus);
  addKeyboardShortcuts();

  round_ = new PredictionRound(detail_, prediction_bar_, this);
  connect(round_, &PredictionRound::activeChanged, this, [this](bool active) {
    prediction_bar_->setVisible(active);
    hideGiveaways();
  });
  connect(round_, &PredictionRound::revealedScore, this, [this] { hideGiveaways(); });
}

void AttentionHeadGridPanel::hideGiveaways() {
  const bool guessing = round_->isActive() && !round_->isRevealed();
  grid_->setVisible(!guessing);
  for (QShortcut* key : navigation_keys_) key->setEnabled(!round_->isActive());
  showHead();  // the CLS overlay again, or not
}

void AttentionHeadGridPanel::addKeyboardShortcuts() {
  // Shortcuts rather than keyPressEvent: the scroll area and the combo boxes would take the
  // arrow and page keys for themselves before they reached the panel.
  const auto add = [this](const QKeySequence& key, auto action) {
    auto* shortcut = new QShortcut(key, this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, action);
    navigation_keys_ << shortcut;
  };
  add(QKeySequence(Qt::Key_Left), [this] { stepHead(-1); });
  add(QKeySequence(Qt::Key_Right), [this] { stepHead(1); });
  add(QKeySequence(Qt::Key_Up), [this] { stepLayer(-1); });
  add(QKeySequence(Qt::Key_PageUp), [this] { stepLayer(-1); });
  add(QKeySequence(Qt::Key_Down), [this] { stepLayer(1); });
  add(QKeySequence(Qt::Key_PageDown), [this] { stepLayer(1); });
}

void AttentionHeadGridPanel::stepHead(int delta) {
  const int head = std::clamp(head_ + delta, 0, std::max(0, headCount() - 1));
  if (head != head_) setCurrentHead(head);
}

void AttentionHeadGridPanel::stepLayer(int delta) {
  const int layer = std::clamp(layer_ + delta, 0, std::max(0, layerCount() - 1));
  if (layer != layer_) setCurrentLayer(layer);
}

int AttentionHeadGridPanel::layerCount() const {
  const AttentionPlotGroup* g = group();
  return g ? g->layerCount() : 0;
}

int AttentionHeadGridPanel::headCount() const {
  const AttentionPlotGroup* g = group();
  return g ? g->headCount(layer_) : 0;
}

int AttentionHeadGridPanel::groupWithId(const QString& id) const {
  for (int g = 0; g < groupCount(); ++g)
    if (snapshot_->groups[static_cast<size_t>(g)].id == id) return g;
  return -1;
}

QString AttentionHeadGridPanel::currentGroupId() const {
  const AttentionPlotGroup* g = group();
  return g ? g->id : QString();
}

const AttentionPlotGroup* AttentionHeadGridPanel::group() const {
  if (group_ < 0 || group_ >= groupCount()) return nullptr;
  return &snapshot_->groups[static_cast<size_t>(group_)];
}

void AttentionHeadGridPanel::setSnapshot(AttentionPlotData snapshot, bool part_of_run) {
  setSnapshot(std::make_shared<const AttentionPlotData>(std::move(snapshot)), part_of_run);
}

void AttentionHeadGridPanel::setSnapshot(SharedPlotData snapshot, bool part_of_run) {
  const QString previous_group = group() ? group()->name : QString();
  source_ = snapshot ? std::move(snapshot) : std::make_shared<const AttentionPlotData>();
  part_of_run_ = part_of_run;
  const bool pieces = WordAttention::hasPieces(*source_);
  SharedPlotData words =
      pieces ? std::make_shared<const AttentionPlotData>(WordAttention::of(*source_)) : nullptr;
  snapshot_ = words_ && words ? words : source_;
  shown_apart_max_.clear();
  for (const AttentionPlotGroup& g : source_->groups) {
    if (part_of_run) seen_max_[g.name].add(g);
  }
  if (words && part_of_run) {
    for (const AttentionPlotGroup& g : words->groups) seen_words_max_[g.name].add(g);
  }
  if (!part_of_run) {
    for (const AttentionPlotGroup& g : snapshot_->groups) shown_apart_max_[g.name].add(g);
  }
  tokens_box_->setVisible(pieces);
  group_ = 0;
  for (int g = 0; g < groupCount(); ++g)
    if (snapshot_->groups[static_cast<size_t>(g)].name == previous_group) group_ = g;
  layer_ = std::clamp(layer_, 0, std::max(0, layerCount() - 1));
  head_ = std::clamp(head_, 0, std::max(0, headCount() - 1));
  // Shortened, then elided with the whole text in its tooltip, in a narrow dock (the timeline
  // above says the step too).
  step_label_->setVersions(snapshot_->step >= 0 ? QStringList{tr("step %1").arg(snapshot_->step),
                                                              QString::number(snapshot_->step)}
                                                : QStringList{});
  fillSelectors();
  stack_->setCurrentIndex(groupCount() > 0 && layerCount() > 0 ? 1 : 0);
  showLayer();
}

void AttentionHeadGridPanel::divideWidth() {
  // Once laid out: the split's width is not known before the event loop has run.
  QTimer::singleShot(0, head_split_, [split = head_split_] {
    const int width = split->width();
    const int grid = std::min(width / 2, std::max(width / 4, 140));
    split->setSizes({grid, width - grid});
  });
}

bool AttentionHeadGridPanel::offersWords() const {
  return tokens_box_->isVisibleTo(this);
}

void AttentionHeadGridPanel::setShowsWords(bool words) {
  {
    const QSignalBlocker block(tokens_box_);
    tokens_box_->setCurrentIndex(words ? 1 : 0);
  }
  if (words == words_) return;
  words_ = words;
  setSnapshot(source_, part_of_run_);
}

void AttentionHeadGridPanel::clear() {
  round_->end();
  seen_max_.clear();
  seen_words_max_.clear();
  given_max_.clear();
  setSnapshot(SharedPlotData());
}

void AttentionHeadGridPanel::setColorScale(AttentionColorScale scale) {
  color_scale_ = scale;
  {
    const QSignalBlocker block(scale_box_);
    scale_box_->setCurrentIndex(scale_box_->findData(static_cast<int>(scale)));
  }
  showLayer();
}

void AttentionHeadGridPanel::setRunMaxima(const QString& group_name,
                                          const AttentionRunMaxima& maxima) {
  given_max_[group_name].raise(maxima);
  if (color_scale_ == AttentionColorScale::Run) showLayer();
}

double AttentionHeadGridPanel::runMaxWeight() const {
  return display().forHead(head_).runMaxWeight();
}

AttentionRunMaxima AttentionHeadGridPanel::runMaximaOf(const AttentionPlotGroup* g) const {
  AttentionRunMaxima tops;
  if (g == nullptr) return tops;
  // In words, the run's maxima given for pieces do not apply: a word sums its pieces' weights.
  const bool words = snapshot_ != source_;
  const std::vector<const QHash<QString, AttentionRunMaxima>*> sources =
      words ? std::vector<const QHash<QString, AttentionRunMaxima>*>{&seen_words_max_,
                                                                     &shown_apart_max_}
            : std::vector<const QHash<QString, AttentionRunMaxima>*>{&seen_max_, &given_max_,
                                                                     &shown_apart_max_};
  for (const QHash<QString, AttentionRunMaxima>* from : sources)
    if (auto it = from->constFind(g->name); it != from->cend()) tops.raise(*it);
  return tops;
}

AttentionHeadDisplay AttentionHeadGridPanel::display() const {
  return displayOf(group_, layer_);
}

AttentionHeadDisplay AttentionHeadGridPanel::displayOf(int group, int layer) const {
  const AttentionPlotGroup* g =
      group >= 0 && group < groupCount() ? &snapshot_->groups[static_cast<size_t>(group)] : nullptr;
  const AttentionRunMaxima tops = runMaximaOf(g);
  const double overall = tops.overall();
  return AttentionHeadDisplay(color_scale_, overall > 0.0 ? overall : 1.0, g && g->causal,
                              g ? g->row_predictions : QStringList())
      .withHeadRunMaxima(tops.layer(layer));
}

void AttentionHeadGridPanel::fillSelectors() {
  const QSignalBlocker block_groups(group_box_);
  const QSignalBlocker block_layers(layer_box_);
  group_box_->clear();
  for (const AttentionPlotGroup& g : snapshot_->groups) group_box_->addItem(g.name);
  group_box_->setCurrentIndex(group_);
  // A single group needs no chooser.
  group_box_->setVisible(groupCount() > 1);
  layer_box_->clear();
  for (int l = 0; l < layerCount(); ++l) layer_box_->addItem(tr("layer %1").arg(l));
  layer_box_->setCurrentIndex(layer_);
  // An aggregate group holds all layers side by side: nothing to choose.
  const AttentionPlotGroup* g = group();
  layer_box_->setVisible(!g || g->aggregate_of.isEmpty());
  fillHeadSelector();
}

void AttentionHeadGridPanel::fillHeadSelector() {
  const QSignalBlocker block(head_box_);
  const AttentionPlotGroup* g = group();
  QStringList names;
  for (int h = 0; h < headCount(); ++h) names.push_back(g->headName(h));
  QStringList shown;
  for (int i = 0; i < head_box_->count(); ++i) shown.push_back(head_box_->itemText(i));
  if (shown != names) {
    head_box_->clear();
    head_box_->addItems(names);
  }
  head_box_->setCurrentIndex(head_);
}

void AttentionHeadGridPanel::setCurrentGroup(int group) {
  if (group < 0 || group >= groupCount()) return;
  const bool changed = group != group_;
  if (changed) round_->end();
  group_ = group;
  layer_ = std::clamp(layer_, 0, std::max(0, layerCount() - 1));
  head_ = std::clamp(head_, 0, std::max(0, headCount() - 1));
  fillSelectors();
  showLayer();
  if (changed) Q_EMIT headSelected(group_, layer_, head_);
}

void AttentionHeadGridPanel::setCurrentLayer(int layer) {
  if (layer < 0 || layer >= layerCount()) return;
  const bool changed = layer != layer_;
  if (changed) round_->end();
  layer_ = layer;
  head_ = std::clamp(head_, 0, std::max(0, headCount() - 1));
  {
    const QSignalBlocker block(layer_box_);
    layer_box_->setCurrentIndex(layer_);
  }
  showLayer();
  if (changed) Q_EMIT headSelected(group_, layer_, head_);
}

void AttentionHeadGridPanel::setCurrentHead(int head) {
  if (head < 0 || head >= headCount()) return;
  if (head != head_) round_->end();
  head_ = head;
  {
    const QSignalBlocker block(head_box_);
    head_box_->setCurrentIndex(head_);
  }
  grid_->setSelectedHead(head_);
  showHead();
  Q_EMIT headSelected(group_, layer_, head_);
}

void AttentionHeadGridPanel::showLayer() {
  const AttentionPlotGroup* g = group();
  if (!g || layer_ >= g->layerCount()) {
    grid_->clear();
    detail_->clear();
    overlay_->clear();
    overlay_->hide();
    return;
  }
  grid_->setTitle(g->aggregate_of.isEmpty() ? tr("%1 · layer %2").arg(g->name).arg(layer_)
                                            : g->name);
  // The snapshot's own matrices, shared with the grid and the enlarged head: never copied here.
  grid_->setHeads(std::shared_ptr<const std::vector<LabeledMatrix>>(
                      snapshot_, &g->layers[static_cast<size_t>(layer_)]),
                  display(), g->head_names);
  grid_->setSelectedHead(head_);
  fillHeadSelector();
  showHead();
}

void AttentionHeadGridPanel::showHead() {
  const AttentionPlotGroup* g = group();
  if (!g || head_ >= g->headCount(layer_)) return;
  const LabeledMatrix& m = g->layers[static_cast<size_t>(layer_)][static_cast<size_t>(head_)];
  detail_->setExportBaseName(exportBaseName() + QStringLiteral("_head%1").arg(head_));
  const QString title = g->aggregate_of.isEmpty()
                            ? tr("%1 · layer %2 · head %3").arg(g->name).arg(layer_).arg(head_)
                            : tr("%1 · %2").arg(g->name, g->headName(head_));
  detail_->setAttention(std::shared_ptr<const LabeledMatrix>(snapshot_, &m), title, g->query_title,
                        g->key_title, display().forHead(head_));

  const PatchImageContext& ctx = snapshot_->image;
  round_->headShown();
  const bool guessing = round_->isActive() && !round_->isRevealed();
  if (std::vector<float> weights = ClsAttentionOverlay::clsPatchWeights(ctx, m);
      !weights.empty() && !guessing) {
    overlay_->setData(ctx.image.toQImage(), weights, ctx.grid_rows, ctx.grid_cols,
                      tr("CLS attention · %1").arg(g->headName(head_)));
    if (overlay_->isHidden()) {
      overlay_->show();
      // The head keeps most of the height: its cells, labels and colour bar need it more than
      // the image, which reads at a quarter of the height already.
      const int h = std::max(200, detail_split_->height());
      detail_split_->setSizes({h * 3 / 4, h - h * 3 / 4});
    }
  } else {
    overlay_->clear();
    overlay_->hide();
  }
}

void AttentionHeadGridPanel::showContextMenu(const QPoint& pos) {
  QMenu menu(this);
  const int head = grid_->headAt(pos);
  const AttentionPlotGroup* g = group();
  if (head >= 0 && g) {
    menu.addAction(tr("Enlarge %1").arg(g->headName(head)), this,
                   [this, head] { setCurrentHead(head); });
    menu.addAction(tr("Ask the class first: hide %1 (H)").arg(g->headName(head)), this,
                   [this, head] {
                     setCurrentHead(head);
                     round_->start(-1);
                   });
  }
  menu.addSeparator();
  ExportMenu::addActions(&menu, this, this);
  menu.exec(grid_->mapToGlobal(pos));
}

QString AttentionHeadGridPanel::exportBaseName() const {
  const AttentionPlotGroup* g = group();
  QString name = g ? g->name.toLower() : QStringLiteral("attention");
  name.replace(QLatin1Char(' '), QLatin1Char('_'));
  return QStringLiteral("attention_%1_layer%2").arg(name).arg(layer_);
}

ExportResult AttentionHeadGridPanel::exportImage(const QString& path, ImageFormat format,
                                                 const ExportSize& size) {
  // Rendering the grid on screen at another size left its wrap and margins fitted to that size
  //: a copy draws the figure. A figure for slides shows the heads, not which one
  // happens to be selected on screen, so the copy has none.
  const AttentionPlotGroup* g = group();
  if (!g || layer_ >= g->layerCount()) return ExportResult::failure(tr("No attention to export."));
  AttentionHeadGrid copy;
  copy.setFont(grid_->font());
  copy.setPalette(grid_->palette());
  copy.setTitle(grid_->title());
  copy.setHeads(g->layers[static_cast<size_t>(layer_)], display(), g->head_names);
  return PlotExporter::save(&copy, path, format, size);
}

ExportResult AttentionHeadGridPanel::exportCsv(const QString& path) const {
  const AttentionPlotData& data = *snapshot_;
  return PlotExporter::writeCsv(
      path,
      {QStringLiteral("step"), QStringLiteral("group"), QStringLiteral("layer"),
       QStringLiteral("head"), QStringLiteral("query_index"), QStringLiteral("query"),
       QStringLiteral("key_index"), QStringLiteral("key"), QStringLiteral("weight")},
      [&data](QTextStream& out) {
        const QString step = data.step >= 0 ? QString::number(data.step) : QString();
        for (const AttentionPlotGroup& g : data.groups) {
          const QString group = PlotExporter::csvField(g.name);
          for (int l = 0; l < g.layerCount(); ++l) {
            for (int h = 0; h < g.headCount(l); ++h) {
              const LabeledMatrix& m = g.layers[static_cast<size_t>(l)][static_cast<size_t>(h)];
              if (!m.isValid()) continue;
              for (int r = 0; r < m.rows; ++r) {
                const QString query = PlotExporter::csvField(m.rowLabel(r));
                for (int c = 0; c < m.cols; ++c)
                  out << step << ',' << group << ',' << l << ',' << h << ',' << r << ',' << query
                      << ',' << c << ',' << PlotExporter::csvField(m.colLabel(c)) << ','
                      << QString::number(m.at(r, c), 'g', 7) << '\n';
              }
            }
          }
        }
      });
}

}  // namespace ascope
