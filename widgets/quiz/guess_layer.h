#pragma once
// What a prediction round lays over a heatmap: a cover over the rows the class must guess, each
// guessed cell outlined (with its votes when more than one), and the keyboard's cursor. Items in
// the plot, so they follow its zoom and pan and appear in an exported figure as on screen.
#include <QList>
#include <QPoint>

#include "widgets/quiz/attention_guess.h"

class QCPAbstractItem;

namespace ascope {

class HeatmapView;

class GuessLayer {
 public:
  explicit GuessLayer(HeatmapView* view);
  GuessLayer(const GuessLayer&) = delete;
  GuessLayer& operator=(const GuessLayer&) = delete;

  /// Covers every row (`query` -1) or row `query`; `covered` false shows the weights again.
  void setCover(bool covered, int query);
  bool isCovered() const { return covered_; }
  /// True while `row`'s weights are covered (hover then says "hidden", not the weight).
  bool hides(int row) const { return covered_ && (query_ < 0 || query_ == row); }
  void setGuess(const AttentionGuess& guess);
  /// The keyboard's cell (x = key, y = query); (-1, -1) for none.
  void setCursor(QPoint cell);
  /// Draws everything again (after the heatmap got a new matrix or theme).
  void redraw();

 private:
  void removeItems();

  HeatmapView* view_;
  bool covered_ = false;
  int query_ = -1;
  AttentionGuess guess_;
  QPoint cursor_{-1, -1};
  QList<QCPAbstractItem*> items_;
};

}  // namespace ascope
