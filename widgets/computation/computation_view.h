#pragma once

#include <QList>
#include <QWidget>

#include <memory>
#include <vector>

#include "widgets/common/exportable.h"
#include "widgets/computation/computation_plot_data.h"

class QButtonGroup;
class QLabel;
class QSplitter;
class QStackedWidget;
class QToolButton;

namespace ascope {

class CellBreakdownView;
class FittingLabel;
class StageFigure;

/// The Computation dock's view: one head's attention as a computation with the model's own
/// numbers. A row of buttons walks the stages in order (layer input, Q K V, QKᵀ, ÷√d_head, mask,
/// softmax, weights·V, heads joined, output projection), each with its shape; the chosen stage is
/// drawn with its formula; beside it, the chosen weight taken apart (CellBreakdownView). Clicking
/// a cell of a query × key stage chooses it (cellChosen).
class ComputationView : public QWidget {
  Q_OBJECT

 public:
  /// Stages of a computation (the pipeline's buttons; made once).
  static constexpr int kStages = 9;

  explicit ComputationView(QWidget* parent = nullptr);
  ~ComputationView() override;

  /// Shares `data` (null: nothing); keeps the stage shown when the new data has it.
  void setComputation(std::shared_ptr<const ComputationPlotData> data);
  const ComputationPlotData* computation() const { return data_.get(); }
  /// The chosen cell, taken apart (outlined in every stage).
  void setBreakdown(const CellBreakdownData& cell);
  /// One line under the heading: "computing…", why there is nothing, … ("" hides it).
  void setStatus(const QString& text);
  QString status() const;
  void clear();

  /// The stage shown, by its index in computation()->stages.
  int currentStage() const { return current_; }
  void setCurrentStage(int index);
  int stageCount() const;

  FittingLabel* headingLabel() const { return heading_; }
  FittingLabel* weightsLabel() const { return weights_; }
  QLabel* statusLabel() const { return status_; }
  QList<QToolButton*> stageButtons() const { return buttons_; }
  /// Stage `index`'s figure, drawn from the data shown.
  StageFigure* stageFigure(int index) const;
  CellBreakdownView* breakdown() const { return breakdown_; }
  /// Every stage's matrices and the breakdown's charts (Export all panels).
  QList<Exportable*> exportables() const;
  /// Slide titles for the exports: "encoder · layer 1 · head 2 · validation sample 3".
  QString figureTitle() const;

 Q_SIGNALS:
  void cellChosen(int query, int key);

 private:
  void rebuildStages();
  /// The stage buttons with their shapes ("QKᵀ" over "[9 × 9]") where the row has room, else
  /// their names alone (the shape stays in the tooltip and the stage's title): a 1024-px screen
  /// gives the dock under 460 px.
  void fitStageButtons();
  bool eventFilter(QObject* watched, QEvent* event) override;
  /// Draws stage `index` if its figure still shows older data (only the stage on screen is drawn
  /// when new data arrives; the others when shown or exported).
  void syncFigure(int index) const;

  std::shared_ptr<const ComputationPlotData> data_;
  int current_ = 0;
  int cell_query_ = -1;
  int cell_key_ = -1;
  FittingLabel* heading_ = nullptr;
  FittingLabel* weights_ = nullptr;
  QLabel* status_ = nullptr;
  QWidget* button_row_ = nullptr;
  QButtonGroup* button_group_ = nullptr;
  QList<QToolButton*> buttons_;
  QStringList full_texts_;   ///< per button: name and shape
  QStringList short_texts_;  ///< per button: name
  QSplitter* split_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  std::vector<StageFigure*> figures_;
  mutable std::vector<bool> stale_;  ///< per figure: drawn from older data than data_
  CellBreakdownView* breakdown_ = nullptr;
};

}  // namespace ascope
