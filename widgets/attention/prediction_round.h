#pragma once
// Predict, then reveal: the enlarged head (or one query's row of it) is covered, the class's
// guess is entered by clicks, by the keyboard or as a tally of votes, and Reveal shows the real
// weights with the guess outlined and a plain score (attention_guess.h). The one owner of the
// round's state; the attention panel starts and ends it and tells it when the head's weights
// change (a live probe, the timeline): a round survives new weights of the same shape.
#include <QList>
#include <QObject>
#include <QPoint>

#include "widgets/quiz/attention_guess.h"

class QShortcut;
class QWidget;

namespace ascope {

class AttentionHeatmapView;
class PredictionBar;

class PredictionRound : public QObject {
  Q_OBJECT

 public:
  /// Keys work while focus is inside `keys_host` (the attention panel): H hides or ends, Q
  /// narrows to the cursor's row (or back to the whole head), arrows move the cursor, Space
  /// toggles its cell (Enter too: Space is the run's while it trains), + and − add and
  /// remove votes, R reveals. (Not Esc: the window's Esc goes back to the run.)
  PredictionRound(AttentionHeatmapView* view, PredictionBar* bar, QWidget* keys_host);

  /// Covers the head on screen (`query` -1) or its row `query`, and clears the guess.
  void start(int query = -1);
  /// Shows the weights with the guess marked and says the score.
  void reveal();
  /// Back to the head as usual, the guess dropped.
  void end();
  /// While guessing: the whole head (-1) or one row is asked about; votes elsewhere are dropped.
  void setQuery(int query);

  bool isActive() const { return active_; }
  bool isRevealed() const { return revealed_; }
  int query() const { return query_; }
  const AttentionGuess& guess() const { return guess_; }
  /// The guess against the head's weights as they are now (masked cells hold nothing).
  GuessScore score() const;

  /// A click on (row, key): one vote there, or none again. Ignored outside the rows asked about,
  /// on a masked cell and once revealed.
  void toggle(int row, int key);
  /// A show of hands for the asked row ("trophy 12, suitcase 5"); returns "" or the problem.
  QString enterTally(const QString& text);

  /// The view shows new weights: a head of another shape ends the round, else it goes on.
  void headShown();

 Q_SIGNALS:
  /// A round began (true) or ended (false): the panel hides what would give the answer away.
  void activeChanged(bool active);
  void guessChanged();
  void revealedScore(const GuessScore& score);

 private:
  void addKeys(QWidget* host);
  void moveCursor(int d_row, int d_col);
  void addVotesAtCursor(int delta);
  bool asks(int row) const { return query_ < 0 || row == query_; }
  bool isMasked(int row, int key) const;
  void showGuess();
  /// The bar's controls, its scope list and its line, as the round now is.
  void syncBar();

  AttentionHeatmapView* view_;
  PredictionBar* bar_;
  bool active_ = false;
  bool revealed_ = false;
  int query_ = -1;
  int rows_ = 0;  ///< the head's shape when the round began
  int cols_ = 0;
  AttentionGuess guess_;
  QPoint cursor_{-1, -1};            ///< x = key, y = query
  QList<QShortcut*> guessing_keys_;  ///< only while a round is being guessed
};

}  // namespace ascope
