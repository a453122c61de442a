#pragma once
// A minimal pair under the scope: two inputs that differ in one place, one head's attention for
// each side by side on lined-up tokens (the changed span one row and one column, "big → small"),
// their difference B − A on a scale symmetric around 0, both answers, and which heads the change
// moved most. Draws plain data (made on a worker from the engine's comparison).
#include <QList>
#include <QWidget>

#include "widgets/attention/attention_plot_data.h"
#include "widgets/common/exportable.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace ascope {

class HeatmapView;

struct MinimalPairPlotData {
  QString input_a;
  QString input_b;
  QString answer_a;  ///< "positive (p = 0.91)"
  QString answer_b;
  /// The same groups, layers and heads with the same lined-up labels on both sides; `difference`
  /// holds b − a.
  AttentionPlotData a;
  AttentionPlotData b;
  AttentionPlotData difference;
  struct HeadChange {
    int group = 0;
    int layer = 0;
    int head = 0;
    double change = 0;  ///< mean total-variation distance of the lined-up rows, 0..1
    QString query;      ///< the row that moved most
    double distance = 0;
  };
  QList<HeadChange> ranking;  ///< most changed first
};

class MinimalPairView : public QWidget, public Exportable {
  Q_OBJECT

 public:
  explicit MinimalPairView(QWidget* parent = nullptr);

  void setPair(MinimalPairPlotData data);
  const MinimalPairPlotData& pair() const { return data_; }
  /// Shows a head of the pair, kept within what it has.
  void showHead(int group, int layer, int head);
  int currentGroup() const { return group_; }
  int currentLayer() const { return layer_; }
  int currentHead() const { return head_; }

  HeatmapView* mapA() const { return map_a_; }
  HeatmapView* mapB() const { return map_b_; }
  HeatmapView* differenceMap() const { return difference_; }
  QLabel* answersLabel() const { return answers_; }
  QLabel* changeLabel() const { return change_; }
  QPushButton* mostChangedButton() const { return most_changed_; }

  QString exportBaseName() const override;
  /// The three maps side by side, as on screen.
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  /// The difference map's cells.
  ExportResult exportCsv(const QString& path) const override;

 private:
  void fillSelectors();
  void draw();

  MinimalPairPlotData data_;
  int group_ = 0;
  int layer_ = 0;
  int head_ = 0;
  QComboBox* group_box_ = nullptr;
  QComboBox* layer_box_ = nullptr;
  QComboBox* head_box_ = nullptr;
  QLabel* answers_ = nullptr;
  QLabel* change_ = nullptr;
  QPushButton* most_changed_ = nullptr;
  HeatmapView* map_a_ = nullptr;
  HeatmapView* map_b_ = nullptr;
  HeatmapView* difference_ = nullptr;
};

}  // namespace ascope
