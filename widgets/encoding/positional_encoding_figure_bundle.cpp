#include "widgets/encoding/positional_encoding_figure_bundle.h"

#include "widgets/common/heatmap_view.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/encoding/dimension_curves_plot.h"
#include "widgets/encoding/positional_encoding_panel.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <utility>

namespace ascope {
namespace {

struct View {
  PositionalEncodingPanel::Tab tab;
  PositionalEncodingPanel::Similarity similarity;
  QString suffix;  ///< tells the two similarity measures apart
  QString name;    ///< for the sidecar
};

/// The curves have no title on screen (the tab says what they are); a figure needs one.
void addTitle(DimensionCurvesPlot* plot, const QString& text) {
  auto* title = new QCPTextElement(plot, text, plot->theme().title_font);
  title->setTextColor(plot->theme().foreground);
  plot->plotLayout()->insertRow(0);
  plot->plotLayout()->addElement(0, 0, title);
}

}  // namespace

PositionalEncodingFigureBundle::PositionalEncodingFigureBundle(const PositionalEncodingPanel& panel,
                                                               FigureContext context)
    : panel_(panel), context_(std::move(context)) {}

ExportResult PositionalEncodingFigureBundle::write(const QString& folder,
                                                   const QList<ImageFormat>& formats,
                                                   const ExportSize& size) {
  figures_.clear();
  // A copy: a live run's next encoding may replace the panel's between two views.
  const PositionalEncodingData data = panel_.encoding();
  if (!data.matrix.isValid()) return ExportResult::success();
  if (!QDir().mkpath(folder))
    return ExportResult::failure(QObject::tr("Cannot create folder %1.").arg(folder));
  using Panel = PositionalEncodingPanel;
  QList<View> views{
      {Panel::EncodingTab, Panel::Similarity::DotProduct, {}, QStringLiteral("encoding")},
      {Panel::DimensionsTab, Panel::Similarity::DotProduct, {}, QStringLiteral("dimensions")},
      {Panel::SimilarityTab, Panel::Similarity::DotProduct, QStringLiteral("_dot"),
       QStringLiteral("similarity (dot product)")},
      {Panel::SimilarityTab, Panel::Similarity::Cosine, QStringLiteral("_cosine"),
       QStringLiteral("similarity (cosine)")}};
  if (data.hasPatchGrid())
    views.push_back(
        {Panel::PatchesTab, Panel::Similarity::Cosine, {}, QStringLiteral("patch similarity")});

  for (const View& view : views) {
    if (between_ && !between_()) return ExportResult::cancel();
    // A fresh copy per view: titles changed for the figure stay out of the next one.
    PositionalEncodingPanel copy;
    copy.setFont(panel_.font());
    copy.setPalette(panel_.palette());
    copy.setEncoding(data);
    copy.setDimensions(panel_.dimensions());
    copy.setSimilarity(view.similarity);
    copy.setCurrentTab(view.tab);
    if (view.tab == Panel::DimensionsTab) {
      addTitle(copy.dimensionPlot(),
               context_.title(QObject::tr("Positional encoding by dimension")));
    } else {
      HeatmapView* heatmap = view.tab == Panel::EncodingTab     ? copy.encodingView()
                             : view.tab == Panel::SimilarityTab ? copy.similarityView()
                                                                : copy.patchView();
      heatmap->setTitle(context_.title(heatmap->title()));
    }
    const QString stem =
        QDir(folder).filePath(copy.exportBaseName() + view.suffix + context_.stepSuffix());
    QJsonArray files;
    for (ImageFormat format : formats) {
      const QString path = stem + QLatin1Char('.') + PlotExporter::suffix(format);
      if (ExportResult r = copy.exportImage(path, format, size); !r.ok()) return r;
      files.append(QFileInfo(path).fileName());
    }
    if (ExportResult r = copy.exportCsv(stem + QStringLiteral(".csv")); !r.ok()) return r;
    files.append(QFileInfo(stem).fileName() + QStringLiteral(".csv"));

    QJsonObject sidecar = context_.toJson();
    sidecar.insert(QStringLiteral("figure"), QStringLiteral("positional encoding"));
    sidecar.insert(QStringLiteral("view"), view.name);
    sidecar.insert(QStringLiteral("kind"), data.kind == PositionalEncodingKind::Learned
                                               ? QStringLiteral("learned")
                                               : QStringLiteral("sinusoidal"));
    sidecar.insert(QStringLiteral("positions"), data.matrix.rows);
    sidecar.insert(QStringLiteral("dimensions"), data.matrix.cols);
    if (view.tab == Panel::DimensionsTab) {
      QJsonArray dims;
      for (int d : copy.dimensions()) dims.append(d);
      sidecar.insert(QStringLiteral("dimensions_shown"), dims);
    }
    if (data.hasPatchGrid())
      sidecar.insert(QStringLiteral("patch_grid"), QJsonArray{data.grid_rows, data.grid_cols});
    sidecar.insert(QStringLiteral("files"), files);
    sidecar.insert(QStringLiteral("size"), QJsonArray{size.width, size.height, size.scale});
    if (ExportResult r = PlotExporter::writeJson(stem + QStringLiteral(".json"), sidecar); !r.ok())
      return r;
    figures_.push_back(QFileInfo(stem).fileName());
  }
  return ExportResult::success();
}

}  // namespace ascope
