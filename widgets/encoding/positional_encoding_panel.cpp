#include "widgets/encoding/positional_encoding_panel.h"

#include "widgets/common/empty_hint.h"
#include "widgets/common/export_menu.h"
#include "widgets/common/heatmap_view.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/encoding/dimension_curves_plot.h"
#include "widgets/encoding/similarity_math.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextStream>
#include <QVBoxLayout>

namespace ascope {
namespace {

QWidget* page(QWidget* parent, QLayout* bar, QWidget* plot) {
  auto* w = new QWidget(parent);
  auto* layout = new QVBoxLayout(w);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->setSpacing(2);
  if (bar) layout->addLayout(bar);
  layout->addWidget(plot, 1);
  return w;
}

QString joinIndices(const QList<int>& indices) {
  QStringList parts;
  for (int i : indices) parts << QString::number(i);
  return parts.join(QStringLiteral(", "));
}

}  // namespace

PositionalEncodingPanel::PositionalEncodingPanel(QWidget* parent) : QWidget(parent) {
  auto* hint = new EmptyHint(tr("The positional encoding appears when a model is built"), this);

  encoding_view_ = new HeatmapView(this);
  encoding_view_->setAxisTitles(tr("dimension"), tr("position"));
  encoding_view_->setGradientKind(HeatmapView::GradientKind::Diverging);
  encoding_view_->setRangeMode(HeatmapView::RangeMode::Symmetric);
  encoding_view_->setColorScaleLabel(tr("value"));
  encoding_view_->setKeepAspect(false);  // 512 dimensions x 64 positions would be a thin strip
  encoding_view_->setExportBaseName(QStringLiteral("positional_encoding"));

  curves_ = new DimensionCurvesPlot(this);
  dims_edit_ = new QLineEdit(this);
  dims_edit_->setPlaceholderText(tr("e.g. 0, 1, 4-5, 32"));
  dims_edit_->setToolTip(tr("Dimensions to draw: numbers and ranges, separated by commas"));
  auto* dims_bar = new QHBoxLayout;
  dims_bar->setContentsMargins(6, 0, 6, 0);
  dims_bar->addWidget(new QLabel(tr("Dimensions:"), this));
  dims_bar->addWidget(dims_edit_, 1);

  similarity_view_ = new HeatmapView(this);
  similarity_view_->setAxisTitles(tr("position"), tr("position"));
  similarity_view_->setExportBaseName(QStringLiteral("positional_similarity"));
  similarity_box_ = new QComboBox(this);
  similarity_box_->addItem(tr("Dot product  PE · PEᵀ"));
  similarity_box_->addItem(tr("Cosine similarity"));
  auto* sim_bar = new QHBoxLayout;
  sim_bar->setContentsMargins(6, 0, 6, 0);
  sim_bar->addWidget(new QLabel(tr("Measure:"), this));
  sim_bar->addWidget(similarity_box_);
  sim_bar->addStretch(1);

  patch_view_ = new HeatmapView(this);
  patch_view_->setTitle(tr("Cosine similarity of position embeddings"));
  patch_view_->setAxisTitles(tr("input patch column"), tr("input patch row"));
  patch_view_->setColorScaleLabel(tr("cosine similarity"));
  patch_view_->setExportBaseName(QStringLiteral("patch_similarity"));

  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->addTab(page(this, nullptr, encoding_view_), tr("Encoding"));
  tabs_->addTab(page(this, dims_bar, curves_), tr("Dimensions"));
  tabs_->addTab(page(this, sim_bar, similarity_view_), tr("Similarity"));
  tabs_->addTab(page(this, nullptr, patch_view_), tr("Patches"));
  kind_label_ = new QLabel(this);
  kind_label_->setForegroundRole(QPalette::PlaceholderText);
  kind_label_->setContentsMargins(0, 0, 8, 0);
  tabs_->setCornerWidget(kind_label_, Qt::TopRightCorner);

  stack_ = new QStackedWidget(this);
  stack_->addWidget(hint);
  stack_->addWidget(tabs_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(dims_edit_, &QLineEdit::editingFinished, this, [this] {
    curves_->setDimensions(parseIndexList(dims_edit_->text(), data_.matrix.cols));
  });
  connect(similarity_box_, &QComboBox::currentIndexChanged, this, [this](int index) {
    similarity_chosen_ = true;
    setSimilarity(index == 1 ? Similarity::Cosine : Similarity::DotProduct);
  });
  for (QWidget* plot : std::initializer_list<QWidget*>{curves_}) {
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot, &QWidget::customContextMenuRequested, this,
            [this, plot](const QPoint& pos) { showContextMenu(plot, pos); });
  }
  tabs_->setTabVisible(PatchesTab, false);
}

void PositionalEncodingPanel::setEncoding(const PositionalEncodingData& data) {
  const bool first = !data_.matrix.isValid();
  const bool dims_changed = data.matrix.cols != data_.matrix.cols;
  data_ = data;
  if (!data_.matrix.isValid()) {
    stack_->setCurrentIndex(0);
    encoding_view_->clear();
    curves_->clear();
    similarity_view_->clear();
    patch_view_->clear();
    return;
  }
  stack_->setCurrentIndex(1);
  const bool learned = data_.kind == PositionalEncodingKind::Learned;
  kind_label_->setText(tr("%1 · %2 positions × %3 dimensions")
                           .arg(learned ? tr("learned") : tr("sinusoidal"))
                           .arg(data_.matrix.rows)
                           .arg(data_.matrix.cols));
  encoding_view_->setTitle(learned ? tr("Learned position embeddings")
                                   : tr("Sinusoidal positional encoding"));
  encoding_view_->setMatrix(data_.matrix);
  curves_->setMatrix(data_.matrix);
  if (first || dims_changed) {
    const int d = data_.matrix.cols;
    setDimensions(parseIndexList(QStringLiteral("0, 1, 4, 5, %1").arg(d / 2), d));
  }
  if (!similarity_chosen_) {
    const QSignalBlocker block(similarity_box_);
    similarity_ = learned ? Similarity::Cosine : Similarity::DotProduct;
    similarity_box_->setCurrentIndex(learned ? 1 : 0);
  }
  updateSimilarity();
  updatePatches();
}

void PositionalEncodingPanel::clear() {
  setEncoding(PositionalEncodingData());
}

void PositionalEncodingPanel::setDimensions(const QList<int>& dimensions) {
  curves_->setDimensions(dimensions);
  dims_edit_->setText(joinIndices(dimensions));
}

QList<int> PositionalEncodingPanel::dimensions() const {
  return curves_->dimensions();
}

void PositionalEncodingPanel::setSimilarity(Similarity similarity) {
  similarity_ = similarity;
  {
    const QSignalBlocker block(similarity_box_);
    similarity_box_->setCurrentIndex(similarity == Similarity::Cosine ? 1 : 0);
  }
  updateSimilarity();
}

void PositionalEncodingPanel::updateSimilarity() {
  const LabeledMatrix& pe = data_.matrix;
  if (!pe.isValid()) return;
  cosine_ = cosineSimilarityMatrix(pe.values, pe.rows, pe.cols);
  LabeledMatrix sim(pe.rows, pe.rows);
  sim.values =
      similarity_ == Similarity::Cosine ? cosine_ : gramMatrix(pe.values, pe.rows, pe.cols);
  sim.row_labels = pe.row_labels;
  sim.col_labels = pe.row_labels;
  const bool cosine = similarity_ == Similarity::Cosine;
  similarity_view_->setTitle(cosine ? tr("Cosine similarity between positions")
                                    : tr("Dot product between positions  (PE · PEᵀ)"));
  similarity_view_->setColorScaleLabel(cosine ? tr("cosine similarity") : tr("dot product"));
  similarity_view_->setGradientKind(HeatmapView::GradientKind::Sequential);
  similarity_view_->setRangeMode(HeatmapView::RangeMode::MinMax);
  similarity_view_->setMatrix(sim);
}

void PositionalEncodingPanel::updatePatches() {
  const bool available = data_.hasPatchGrid();
  tabs_->setTabVisible(PatchesTab, available);
  if (!available) {
    patch_view_->clear();
    return;
  }
  const int gr = data_.grid_rows, gc = data_.grid_cols;
  const int first = data_.has_cls_row ? 1 : 0;
  patch_view_->setMatrix(patchSimilarityMosaic(cosine_, first, gr, gc));
  QVector<double> x_pos, y_pos;
  QVector<QString> x_labels, y_labels;
  for (int c = 0; c < gc; ++c) {
    x_pos << c * (gc + 1) + (gc - 1) / 2.0;
    x_labels << QString::number(c);
  }
  for (int r = 0; r < gr; ++r) {
    y_pos << r * (gr + 1) + (gr - 1) / 2.0;
    y_labels << QString::number(r);
  }
  patch_view_->setCustomTicks(Qt::Horizontal, x_pos, x_labels);
  patch_view_->setCustomTicks(Qt::Vertical, y_pos, y_labels);
  patch_view_->setTooltipFormatter([gr, gc](int row, int col, float value) {
    return tr("patch (%1, %2) ↔ patch (%3, %4): %5")
        .arg(row / (gr + 1))
        .arg(col / (gc + 1))
        .arg(row % (gr + 1))
        .arg(col % (gc + 1))
        .arg(QString::number(value, 'f', 3));
  });
}

void PositionalEncodingPanel::setCurrentTab(Tab tab) {
  tabs_->setCurrentIndex(tab);
}

PositionalEncodingPanel::Tab PositionalEncodingPanel::currentTab() const {
  return static_cast<Tab>(tabs_->currentIndex());
}

bool PositionalEncodingPanel::isPatchTabAvailable() const {
  return tabs_->isTabVisible(PatchesTab);
}

void PositionalEncodingPanel::showContextMenu(QWidget* plot, const QPoint& pos) {
  QMenu menu(this);
  ExportMenu::addActions(&menu, this, this);
  menu.exec(plot->mapToGlobal(pos));
}

QString PositionalEncodingPanel::exportBaseName() const {
  switch (currentTab()) {
    case EncodingTab:
      return QStringLiteral("positional_encoding");
    case DimensionsTab:
      return QStringLiteral("positional_encoding_dimensions");
    case SimilarityTab:
      return QStringLiteral("positional_similarity");
    case PatchesTab:
      return QStringLiteral("patch_similarity");
  }
  return QStringLiteral("positional_encoding");
}

ExportResult PositionalEncodingPanel::exportImage(const QString& path, ImageFormat format,
                                                  const ExportSize& size) {
  switch (currentTab()) {
    case DimensionsTab:
      return PlotExporter::save(curves_, path, format, size);
    case SimilarityTab:
      return similarity_view_->exportImage(path, format, size);
    case PatchesTab:
      return patch_view_->exportImage(path, format, size);
    case EncodingTab:
      break;
  }
  return encoding_view_->exportImage(path, format, size);
}

ExportResult PositionalEncodingPanel::exportCsv(const QString& path) const {
  const LabeledMatrix& pe = data_.matrix;
  switch (currentTab()) {
    case DimensionsTab: {
      QStringList header{QStringLiteral("position")};
      const QList<int> dims = dimensions();
      for (int d : dims) header << QStringLiteral("dim %1").arg(d);
      return PlotExporter::writeCsv(path, header, [&pe, &dims](QTextStream& out) {
        for (int p = 0; p < pe.rows; ++p) {
          out << PlotExporter::csvField(pe.rowLabel(p));
          for (int d : dims) out << ',' << QString::number(pe.at(p, d), 'g', 7);
          out << '\n';
        }
      });
    }
    case SimilarityTab:
      return similarity_view_->exportCsv(path);
    case PatchesTab: {
      const int gr = data_.grid_rows, gc = data_.grid_cols, n = gr * gc;
      const int first = data_.has_cls_row ? 1 : 0, tokens = first + n;
      return PlotExporter::writeCsv(
          path,
          {QStringLiteral("patch_row"), QStringLiteral("patch_col"), QStringLiteral("other_row"),
           QStringLiteral("other_col"), QStringLiteral("cosine")},
          [&](QTextStream& out) {
            if (cosine_.size() != static_cast<size_t>(tokens) * tokens) return;
            for (int p = 0; p < n; ++p)
              for (int q = 0; q < n; ++q)
                out << p / gc << ',' << p % gc << ',' << q / gc << ',' << q % gc << ','
                    << QString::number(cosine_[static_cast<size_t>(first + p) * tokens + first + q],
                                       'g', 7)
                    << '\n';
          });
    }
    case EncodingTab:
      break;
  }
  return encoding_view_->exportCsv(path);
}

}  // namespace ascope
