#pragma once

#include "widgets/common/exportable.h"
#include "widgets/encoding/positional_encoding_data.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTabWidget;

namespace ascope {

class DimensionCurvesPlot;
class HeatmapView;

/// What a positional encoding looks like, in four tabs: the table as a heatmap (position x
/// dimension), chosen dimensions as curves over position, the similarity of every pair of positions
/// (PE·PEᵀ or cosine), and for vision transformers the ViT-paper grid of per-patch similarity maps.
class PositionalEncodingPanel : public QWidget, public Exportable {
  Q_OBJECT

 public:
  enum Tab { EncodingTab = 0, DimensionsTab = 1, SimilarityTab = 2, PatchesTab = 3 };
  enum class Similarity { DotProduct, Cosine };

  explicit PositionalEncodingPanel(QWidget* parent = nullptr);

  void setEncoding(const PositionalEncodingData& data);
  const PositionalEncodingData& encoding() const { return data_; }
  void clear();

  /// Dimensions drawn as curves; defaults to a few sine/cosine pairs and the middle dimension.
  void setDimensions(const QList<int>& dimensions);
  QList<int> dimensions() const;
  /// Defaults to dot product for sinusoidal and cosine for learned encodings.
  void setSimilarity(Similarity similarity);
  Similarity similarity() const { return similarity_; }

  void setCurrentTab(Tab tab);
  Tab currentTab() const;
  bool isPatchTabAvailable() const;

  QTabWidget* tabs() const { return tabs_; }
  HeatmapView* encodingView() const { return encoding_view_; }
  DimensionCurvesPlot* dimensionPlot() const { return curves_; }
  HeatmapView* similarityView() const { return similarity_view_; }
  HeatmapView* patchView() const { return patch_view_; }
  QLineEdit* dimensionEditor() const { return dims_edit_; }

  QString exportBaseName() const override;
  /// The plot of the current tab.
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  /// The data of the current tab.
  ExportResult exportCsv(const QString& path) const override;

 private:
  void updateSimilarity();
  void updatePatches();
  void showContextMenu(QWidget* plot, const QPoint& pos);

  PositionalEncodingData data_;
  Similarity similarity_ = Similarity::DotProduct;
  bool similarity_chosen_ = false;  // the user picked one; stop following the encoding kind
  std::vector<float> cosine_;       // cached for the patch tab and its CSV

  QStackedWidget* stack_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QLabel* kind_label_ = nullptr;
  HeatmapView* encoding_view_ = nullptr;
  DimensionCurvesPlot* curves_ = nullptr;
  QLineEdit* dims_edit_ = nullptr;
  HeatmapView* similarity_view_ = nullptr;
  QComboBox* similarity_box_ = nullptr;
  HeatmapView* patch_view_ = nullptr;
};

}  // namespace ascope
