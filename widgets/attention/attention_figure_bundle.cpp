#include "widgets/attention/attention_figure_bundle.h"

#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/attention/cls_attention_overlay.h"
#include "widgets/attention/word_attention.h"
#include "widgets/common/plot_exporter.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonValue>

#include <algorithm>
#include <utility>

namespace ascope {
namespace {

QString scaleName(AttentionColorScale scale) {
  switch (scale) {
    case AttentionColorScale::Fixed:
      return QStringLiteral("fixed");
    case AttentionColorScale::Run:
      return QStringLiteral("run");
    case AttentionColorScale::PerHead:
      return QStringLiteral("per head");
    case AttentionColorScale::PerRow:
      return QStringLiteral("per row");
  }
  return QStringLiteral("run");
}

QJsonArray rangeJson(const QCPRange& range) {
  return QJsonArray{range.lower, range.upper};
}

QJsonArray labelsJson(const LabeledMatrix& m, Qt::Orientation which) {
  QJsonArray labels;
  const int count = which == Qt::Vertical ? m.rows : m.cols;
  for (int i = 0; i < count; ++i)
    labels.append(which == Qt::Vertical ? m.rowLabel(i) : m.colLabel(i));
  return labels;
}

/// Off-screen plots look like the panel's: same font (presentation zoom) and palette.
void copyLook(QWidget* copy, const QWidget* original) {
  copy->setFont(original->font());
  copy->setPalette(original->palette());
}

}  // namespace

AttentionFigureBundle::AttentionFigureBundle(const AttentionHeadGridPanel& panel,
                                             FigureContext context)
    : panel_(panel),
      data_(panel.sharedSnapshot()),
      group_(panel.currentGroup()),
      layer_(panel.currentLayer()),
      head_(panel.currentHead()),
      words_(panel.showsWords() && panel.offersWords()),
      offers_words_(panel.offersWords()),
      context_(std::move(context)) {
  for (int g = 0; g < static_cast<int>(data_->groups.size()); ++g) {
    std::vector<AttentionHeadDisplay> layers;
    for (int l = 0; l < data_->groups[static_cast<size_t>(g)].layerCount(); ++l)
      layers.push_back(panel.displayOf(g, l));
    displays_.push_back(std::move(layers));
  }
}

QString AttentionFigureBundle::csvName(const FigureContext& context) {
  const QString run =
      context.run.isEmpty() ? QString() : QLatin1Char('_') + FigureContext::slug(context.run);
  return QStringLiteral("attention%1%2.csv").arg(run, context.stepSuffix());
}

ExportResult AttentionFigureBundle::write(const QString& folder, const QList<ImageFormat>& formats,
                                          const ExportSize& size) {
  formats_ = formats;
  size_ = size;
  figures_.clear();
  const AttentionPlotData& data = *data_;
  for (int g = 0; g < static_cast<int>(data.groups.size()); ++g) {
    const QString sub =
        QDir(folder).filePath(FigureContext::slug(data.groups[static_cast<size_t>(g)].name));
    if (ExportResult r = writeGroup(g, sub); !r.ok()) return r;
  }
  return writeEnlargedHead(folder);
}

ExportResult AttentionFigureBundle::writeGroup(int group, const QString& folder) {
  const AttentionPlotGroup& g = data_->groups[static_cast<size_t>(group)];
  const QString slug = FigureContext::slug(g.name);
  const bool aggregate = !g.aggregate_of.isEmpty();
  for (int layer = 0; layer < g.layerCount(); ++layer) {
    const std::vector<LabeledMatrix>& heads = g.layers[static_cast<size_t>(layer)];
    if (heads.empty()) continue;
    const AttentionHeadDisplay& display =
        displays_[static_cast<size_t>(group)][static_cast<size_t>(layer)];
    const QString name = aggregate ? QStringLiteral("attention_%1").arg(slug)
                                   : QStringLiteral("attention_%1_layer%2").arg(slug).arg(layer);
    AttentionHeadGrid grid;
    copyLook(&grid, panel_.headGrid());
    grid.setTitle(
        context_.title(aggregate ? g.name : QObject::tr("%1 · layer %2").arg(g.name).arg(layer)));
    grid.setHeads(heads, display, g.head_names);
    QJsonObject sidecar = sidecarOf(g, aggregate ? -1 : layer, -1, display, heads.front());
    sidecar.insert(QStringLiteral("figure"), QStringLiteral("head grid"));
    QJsonArray names;
    for (int h = 0; h < static_cast<int>(heads.size()); ++h) names.append(g.headName(h));
    sidecar.insert(QStringLiteral("heads"), names);
    if (display.headsHaveOwnRanges()) {
      QJsonArray ranges;
      for (int h = 0; h < static_cast<int>(heads.size()); ++h)
        ranges.append(rangeJson(display.colorRange(heads[static_cast<size_t>(h)], h)));
      sidecar.insert(QStringLiteral("head_color_ranges"), ranges);
    }
    const ExportResult r = writeFigure(
        QDir(folder).filePath(name + context_.stepSuffix()),
        [&grid, this](const QString& path, ImageFormat format) {
          return PlotExporter::save(&grid, path, format, size_);
        },
        sidecar);
    if (!r.ok()) return r;
  }
  return ExportResult::success();
}

ExportResult AttentionFigureBundle::writeEnlargedHead(const QString& folder) {
  const int group = group_, layer = layer_, head = head_;
  const AttentionPlotData& data = *data_;
  if (group < 0 || group >= static_cast<int>(data.groups.size())) return ExportResult::success();
  const AttentionPlotGroup& g = data.groups[static_cast<size_t>(group)];
  if (layer >= g.layerCount() || head >= g.headCount(layer)) return ExportResult::success();
  const LabeledMatrix& m = g.layers[static_cast<size_t>(layer)][static_cast<size_t>(head)];
  if (!m.isValid()) return ExportResult::success();
  const AttentionHeadDisplay display =
      displays_[static_cast<size_t>(group)][static_cast<size_t>(layer)].forHead(head);
  const bool aggregate = !g.aggregate_of.isEmpty();
  const QString slug = FigureContext::slug(g.name);
  const QString where =
      aggregate ? QObject::tr("%1 · %2").arg(g.name, g.headName(head))
                : QObject::tr("%1 · layer %2 · head %3").arg(g.name).arg(layer).arg(head);
  const QString which = aggregate ? FigureContext::slug(g.headName(head))
                                  : QStringLiteral("layer%1_head%2").arg(layer).arg(head);
  const QString sub = QDir(folder).filePath(slug);

  AttentionHeatmapView view;
  copyLook(&view, panel_.headView());
  view.setAttention(m, context_.title(where), g.query_title, g.key_title, display);
  QJsonObject sidecar = sidecarOf(g, aggregate ? -1 : layer, head, display, m);
  sidecar.insert(QStringLiteral("figure"), QStringLiteral("enlarged head"));
  ExportResult r = writeFigure(
      QDir(sub).filePath(QStringLiteral("attention_%1_%2").arg(slug, which) +
                         context_.stepSuffix()),
      [&view, this](const QString& path, ImageFormat format) {
        return view.exportImage(path, format, size_);
      },
      sidecar);
  if (!r.ok()) return r;

  const std::vector<float> weights = ClsAttentionOverlay::clsPatchWeights(data.image, m);
  if (weights.empty()) return ExportResult::success();
  ClsAttentionOverlay overlay;
  copyLook(&overlay, panel_.clsOverlay());
  overlay.setData(data.image.image.toQImage(), weights, data.image.grid_rows, data.image.grid_cols,
                  context_.title(QObject::tr("CLS attention · %1").arg(where)));
  // Half the figure's size, drawn twice as large: the caption reads on a slide.
  overlay.resize(std::max(160, size_.width / 2), std::max(90, size_.height / 2));
  sidecar.insert(QStringLiteral("figure"), QStringLiteral("cls overlay"));
  QJsonObject color;
  color.insert(QStringLiteral("mode"), QStringLiteral("fraction of the largest CLS weight"));
  const auto [low, high] = std::minmax_element(weights.begin(), weights.end());
  color.insert(QStringLiteral("range"), QJsonArray{double(*low), double(*high)});
  sidecar.insert(QStringLiteral("color"), color);
  sidecar.insert(QStringLiteral("patch_grid"),
                 QJsonArray{data.image.grid_rows, data.image.grid_cols});
  return writeFigure(
      QDir(sub).filePath(QStringLiteral("cls_overlay_%1_%2").arg(slug, which) +
                         context_.stepSuffix()),
      [&overlay, this](const QString& path, ImageFormat format) {
        return PlotExporter::saveWidget(&overlay, path, format, size_);
      },
      sidecar);
}

QJsonObject AttentionFigureBundle::sidecarOf(const AttentionPlotGroup& g, int layer, int head,
                                             const AttentionHeadDisplay& display,
                                             const LabeledMatrix& m) const {
  QJsonObject json = context_.toJson();
  json.insert(QStringLiteral("group"), g.name);
  if (!g.aggregate_of.isEmpty()) json.insert(QStringLiteral("aggregate_of"), g.aggregate_of);
  json.insert(QStringLiteral("layer"), layer >= 0 ? QJsonValue(layer) : QJsonValue());
  json.insert(QStringLiteral("head"), head >= 0 ? QJsonValue(head) : QJsonValue());
  if (head >= 0) json.insert(QStringLiteral("head_name"), g.headName(head));
  QJsonObject color;
  color.insert(QStringLiteral("mode"), scaleName(display.scale()));
  color.insert(QStringLiteral("label"), display.scaleLabel(head < 0));
  // The grid's bar reads as fractions of each head's top where each head has its own range
  // (PerHead, Run per head: see head_color_ranges).
  const bool fractions = head < 0 && display.headsHaveOwnRanges();
  color.insert(QStringLiteral("range"),
               rangeJson(fractions ? QCPRange(0.0, 1.0) : display.colorRange(m)));
  json.insert(QStringLiteral("color"), color);
  QJsonObject tokens;
  tokens.insert(QStringLiteral("query_title"), g.query_title);
  tokens.insert(QStringLiteral("key_title"), g.key_title);
  tokens.insert(QStringLiteral("queries"), labelsJson(m, Qt::Vertical));
  tokens.insert(QStringLiteral("keys"), labelsJson(m, Qt::Horizontal));
  if (!g.row_predictions.isEmpty())
    tokens.insert(QStringLiteral("row_predictions"), QJsonArray::fromStringList(g.row_predictions));
  if (words_ || offers_words_) {
    tokens.insert(QStringLiteral("unit"),
                  words_ ? QStringLiteral("words") : QStringLiteral("pieces"));
    tokens.insert(QStringLiteral("unit_explained"), WordAttention::explanation());
  }
  json.insert(QStringLiteral("tokens"), tokens);
  json.insert(QStringLiteral("causal"), g.causal);
  return json;
}

ExportResult AttentionFigureBundle::writeFigure(const QString& stem, const Render& render,
                                                QJsonObject sidecar) {
  if (between_ && !between_()) return ExportResult::cancel();
  if (!QDir().mkpath(QFileInfo(stem).absolutePath()))
    return ExportResult::failure(
        QObject::tr("Cannot create folder %1.").arg(QFileInfo(stem).absolutePath()));
  QJsonArray files;
  for (ImageFormat format : formats_) {
    const QString path = stem + QLatin1Char('.') + PlotExporter::suffix(format);
    if (ExportResult r = render(path, format); !r.ok()) return r;
    files.append(QFileInfo(path).fileName());
  }
  sidecar.insert(QStringLiteral("files"), files);
  sidecar.insert(QStringLiteral("size"), QJsonArray{size_.width, size_.height, size_.scale});
  figures_.push_back(QFileInfo(stem).fileName());
  return PlotExporter::writeJson(stem + QStringLiteral(".json"), sidecar);
}

}  // namespace ascope
