#pragma once

#include "widgets/decoding/beam_tree_data.h"

#include <QRectF>
#include <QWidget>

#include <memory>
#include <vector>

namespace ascope {

/// A beam search drawn as a tree: one column per decoding step, each candidate the step weighed
/// as a box with its token and length-normalised score, linked to the hypothesis it continued.
/// Kept candidates are drawn plainly, finished ones ([EOS] or the length limit) framed, pruned
/// ones greyed. The chosen hypothesis' path is in the accent colour and the current step's column
/// is shaded; clicking a candidate chooses the best finished hypothesis through it.
class BeamTreeView : public QWidget {
  Q_OBJECT

 public:
  explicit BeamTreeView(QWidget* parent = nullptr);

  /// Null or empty hides nothing by itself: the owner hides the view.
  void setTree(std::shared_ptr<const BeamTreeData> tree);
  const BeamTreeData* tree() const { return tree_.get(); }
  void setChosen(int hypothesis);
  int chosen() const { return chosen_; }
  /// The decoding step shaded (the Decoding dock's step).
  void setStep(int step);

  /// Where node `node` is drawn (empty when there is none).
  QRectF nodeRect(int node) const;
  /// The node drawn at `pos`, or -1.
  int nodeAt(const QPointF& pos) const;
  /// "scatola · score −0.84 · log p −1.92 · kept".
  QString nodeText(int node) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  void hypothesisChosen(int hypothesis);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void layOut();

  std::shared_ptr<const BeamTreeData> tree_;
  int chosen_ = 0;
  int step_ = -1;
  std::vector<QRectF> rects_;  ///< per node
  QSizeF extent_;
};

}  // namespace ascope
