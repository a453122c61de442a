#include "widgets/attention_head_grid_panel.h"

#include "widgets/attention_head_grid.h"
#include "widgets/attention_heatmap_view.h"
#include "widgets/cls_attention_overlay.h"
#include "widgets/empty_hint.h"
#include "widgets/export_menu.h"
#include "widgets/plot_exporter.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <cmath>

namespace ascope {

AttentionHeadGridPanel::AttentionHeadGridPanel(QWidget* parent) : QWidget(parent) {
  auto* hint = new EmptyHint(tr("Attention appears after the first probe step"), this);

  group_label_ = new QLabel(tr("Attention:"), this);
  group_box_ = new QComboBox(this);
  group_box_->setObjectName(QStringLiteral("groupSelector"));
  group_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  layer_box_ = new QComboBox(this);
  layer_box_->setObjectName(QStringLiteral("layerSelector"));
  layer_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  step_label_ = new QLabel(this);
  step_label_->setForegroundRole(QPalette::PlaceholderText);

  grid_ = new AttentionHeadGrid(this);
  grid_->setContextMenuPolicy(Qt::CustomContextMenu);
  detail_ = new AttentionHeatmapView(this);
  overlay_ = new ClsAttentionOverlay(this);
  overlay_->hide();
  detail_split_ = new QSplitter(Qt::Vertical, this);
  detail_split_->addWidget(detail_);
  detail_split_->addWidget(overlay_);
  detail_split_->setStretchFactor(0, 3);
  detail_split_->setStretchFactor(1, 2);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(grid_);
  split->addWidget(detail_split_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 2, 6, 0);
  bar->addWidget(group_label_);
  bar->addWidget(group_box_);
  bar->addSpacing(8);
  bar->addWidget(new QLabel(tr("Layer:"), this));
  bar->addWidget(layer_box_);
  bar->addSpacing(8);
  bar->addWidget(step_label_);
  bar->addStretch(1);
  auto* content = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->setSpacing(2);
  content_layout->addLayout(bar);
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
  connect(grid_, &AttentionHeadGrid::headClicked, this, &AttentionHeadGridPanel::setCurrentHead);
  connect(grid_, &QWidget::customContextMenuRequested, this,
          &AttentionHeadGridPanel::showContextMenu);
}

int AttentionHeadGridPanel::layerCount() const {
  const AttentionPlotGroup* g = group();
  return g ? g->layerCount() : 0;
}

int AttentionHeadGridPanel::headCount() const {
  const AttentionPlotGroup* g = group();
  return g ? g->headCount(layer_) : 0;
}

const AttentionPlotGroup* AttentionHeadGridPanel::group() const {
  if (group_ < 0 || group_ >= groupCount()) return nullptr;
  return &snapshot_.groups[static_cast<size_t>(group_)];
}

void AttentionHeadGridPanel::setSnapshot(AttentionPlotData snapshot) {
  const QString previous_group = group() ? group()->name : QString();
  snapshot_ = std::move(snapshot);
  group_ = 0;
  for (int g = 0; g < groupCount(); ++g)
    if (snapshot_.groups[static_cast<size_t>(g)].name == previous_group) group_ = g;
  layer_ = std::clamp(layer_, 0, std::max(0, layerCount() - 1));
  head_ = std::clamp(head_, 0, std::max(0, headCount() - 1));
  step_label_->setText(snapshot_.step >= 0 ? tr("step %1").arg(snapshot_.step) : QString());
  fillSelectors();
  stack_->setCurrentIndex(groupCount() > 0 && layerCount() > 0 ? 1 : 0);
  showLayer();
}

void AttentionHeadGridPanel::clear() {
  setSnapshot(AttentionPlotData());
}

void AttentionHeadGridPanel::fillSelectors() {
  const QSignalBlocker block_groups(group_box_);
  const QSignalBlocker block_layers(layer_box_);
  group_box_->clear();
  for (const AttentionPlotGroup& g : snapshot_.groups) group_box_->addItem(g.name);
  group_box_->setCurrentIndex(group_);
  // A single group needs no chooser.
  group_box_->setVisible(groupCount() > 1);
  group_label_->setVisible(groupCount() > 1);
  layer_box_->clear();
  for (int l = 0; l < layerCount(); ++l) layer_box_->addItem(tr("layer %1").arg(l));
  layer_box_->setCurrentIndex(layer_);
}

void AttentionHeadGridPanel::setCurrentGroup(int group) {
  if (group < 0 || group >= groupCount()) return;
  group_ = group;
  layer_ = std::clamp(layer_, 0, std::max(0, layerCount() - 1));
  head_ = std::clamp(head_, 0, std::max(0, headCount() - 1));
  fillSelectors();
  showLayer();
}

void AttentionHeadGridPanel::setCurrentLayer(int layer) {
  if (layer < 0 || layer >= layerCount()) return;
  layer_ = layer;
  head_ = std::clamp(head_, 0, std::max(0, headCount() - 1));
  {
    const QSignalBlocker block(layer_box_);
    layer_box_->setCurrentIndex(layer_);
  }
  showLayer();
}

void AttentionHeadGridPanel::setCurrentHead(int head) {
  if (head < 0 || head >= headCount()) return;
  head_ = head;
  grid_->setSelectedHead(head_);
  showHead();
  Q_EMIT headSelected(group_, layer_, head_);
}

double AttentionHeadGridPanel::layerMaxWeight() const {
  const AttentionPlotGroup* g = group();
  double max_weight = 0.0;
  if (!g || layer_ >= g->layerCount()) return 1.0;
  for (const LabeledMatrix& m : g->layers[static_cast<size_t>(layer_)])
    max_weight = std::max(max_weight, static_cast<double>(m.finiteRange().second));
  return max_weight > 0.0 ? max_weight : 1.0;
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
  grid_->setTitle(tr("%1 · layer %2").arg(g->name).arg(layer_));
  grid_->setHeads(g->layers[static_cast<size_t>(layer_)], layerMaxWeight());
  grid_->setSelectedHead(head_);
  showHead();
}

void AttentionHeadGridPanel::showHead() {
  const AttentionPlotGroup* g = group();
  if (!g || head_ >= g->headCount(layer_)) return;
  const LabeledMatrix& m = g->layers[static_cast<size_t>(layer_)][static_cast<size_t>(head_)];
  detail_->setExportBaseName(exportBaseName() + QStringLiteral("_head%1").arg(head_));
  detail_->setAttention(m, tr("%1 · layer %2 · head %3").arg(g->name).arg(layer_).arg(head_),
                        g->query_title, g->key_title, layerMaxWeight());

  // CLS overlay: row 0 (the CLS query) over the patch columns, when the tokens are patches.
  const PatchImageContext& ctx = snapshot_.image;
  const int patches = ctx.grid_rows * ctx.grid_cols;
  const int first_patch = ctx.has_cls_token ? 1 : 0;
  if (ctx.isValid() && ctx.has_cls_token && m.isValid() && m.cols == patches + first_patch) {
    std::vector<float> weights(m.values.begin() + first_patch, m.values.begin() + m.cols);
    overlay_->setData(ctx.image.toQImage(), weights, ctx.grid_rows, ctx.grid_cols,
                      tr("CLS attention · head %1").arg(head_));
    if (overlay_->isHidden()) {
      overlay_->show();
      const int h = std::max(200, detail_split_->height());
      detail_split_->setSizes({h * 3 / 5, h * 2 / 5});
    }
  } else {
    overlay_->clear();
    overlay_->hide();
  }
}

void AttentionHeadGridPanel::showContextMenu(const QPoint& pos) {
  QMenu menu(this);
  const int head = grid_->headAt(pos);
  if (head >= 0)
    menu.addAction(tr("Enlarge head %1").arg(head), this, [this, head] { setCurrentHead(head); });
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
  // A figure for slides shows the heads, not which one happens to be selected on screen.
  const int selected = grid_->selectedHead();
  grid_->setSelectedHead(-1);
  const ExportResult result = PlotExporter::save(grid_, path, format, size);
  grid_->setSelectedHead(selected);
  return result;
}

ExportResult AttentionHeadGridPanel::exportCsv(const QString& path) const {
  const AttentionPlotGroup* g = group();
  return PlotExporter::writeCsv(
      path,
      {QStringLiteral("layer"), QStringLiteral("head"), QStringLiteral("query_index"),
       QStringLiteral("query"), QStringLiteral("key_index"), QStringLiteral("key"),
       QStringLiteral("weight")},
      [g](QTextStream& out) {
        if (!g) return;
        for (int l = 0; l < g->layerCount(); ++l) {
          for (int h = 0; h < g->headCount(l); ++h) {
            const LabeledMatrix& m = g->layers[static_cast<size_t>(l)][static_cast<size_t>(h)];
            if (!m.isValid()) continue;
            for (int r = 0; r < m.rows; ++r) {
              const QString query = PlotExporter::csvField(m.rowLabel(r));
              for (int c = 0; c < m.cols; ++c)
                out << l << ',' << h << ',' << r << ',' << query << ',' << c << ','
                    << PlotExporter::csvField(m.colLabel(c)) << ','
                    << QString::number(m.at(r, c), 'g', 7) << '\n';
            }
          }
        }
      });
}

}  // namespace ascope
