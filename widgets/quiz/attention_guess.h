#pragma once
// The class's guess about where a hidden head looks, and how well it did once revealed. The same
// rule scores a guess in the window and in the handout's lesson (resources/handout/js), so that a
// student replaying the lesson at home sees the score the lecture saw.
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

#include "widgets/common/labeled_matrix.h"

namespace ascope {

/// Votes per query row and key: a click is one vote on a key, a tally typed in from a show of
/// hands is many.
class AttentionGuess {
 public:
  /// A click: the key gets one vote, or loses its votes when it had some.
  void toggle(int row, int key);
  /// Adds `delta` votes (negative removes; never below zero).
  void addVotes(int row, int key, int delta);
  void setVotes(int row, int key, int votes);
  int votes(int row, int key) const;
  /// The rows that hold at least one vote, in order.
  QList<int> rows() const;
  bool isEmpty() const { return rows().isEmpty(); }
  void clear() { votes_.clear(); }
  /// Every (row, key) with votes, for drawing.
  const QMap<int, QMap<int, int>>& all() const { return votes_; }

 private:
  QMap<int, QMap<int, int>> votes_;
};

/// How a guess fared against the revealed weights.
struct GuessScore {
  int rows = 0;           ///< query rows guessed
  double held = 0;        ///< mean over those rows of the weight their guessed keys hold (0..1)
  int top_hits = 0;       ///< rows whose top key got the most votes
  QString top_key;        ///< one row guessed: its top key's label
  double top_weight = 0;  ///< … and that key's weight
};

/// For each guessed row q with guessed keys G: held_q = Σ_{k∈G} w[q][k], masked cells holding
/// nothing; the row's top key is its unmasked key of largest weight, and the row is a hit when
/// that key got votes and no key got more. `masked(row, col)` says which cells attention could
/// not reach (by default the NaN ones); votes on them count nothing.
GuessScore scoreGuess(const LabeledMatrix& weights, const AttentionGuess& guess,
                      const std::function<bool(int, int)>& masked = {});

/// One line for the class: "Your guess held 62% of the weight · top key “trophy” guessed ✓".
QString describeScore(const GuessScore& score);

/// A tally typed in after a show of hands, "trophy 12, suitcase 5": each key named by its label
/// (as the columns are labelled; a label that appears twice takes its first column), then its
/// votes. Sets `row`'s votes in `guess` to exactly those; returns "" or what is wrong, naming the
/// part that did not read.
QString applyTally(const QString& text, const QStringList& key_labels, int row,
                   AttentionGuess* guess);

}  // namespace ascope
