#pragma once
// The controls of a prediction round, under the attention panel's selectors: what the class is
// asked about (the whole head or one query's row), Hide, Reveal, a tally typed in from a show of
// hands, and the instructions or the score. Holds no state of its own: PredictionRound says
// what to show.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace ascope {

class PredictionBar : public QWidget {
  Q_OBJECT

 public:
  explicit PredictionBar(QWidget* parent = nullptr);

  /// The rows the class may be asked about, by their query labels ("whole head" comes first).
  void setQueries(const QStringList& labels);
  /// Hidden and guessing, revealed, or no round; `query` -1 for the whole head.
  void showState(bool active, bool revealed, int query);
  /// The line under the controls: how to guess, what was wrong with a tally, or the score.
  void setMessage(const QString& text, bool emphasised);

  QComboBox* scopeSelector() const { return scope_; }
  QPushButton* hideButton() const { return hide_; }
  QPushButton* revealButton() const { return reveal_; }
  QLineEdit* tallyEdit() const { return tally_; }
  QLabel* messageLabel() const { return message_; }

 Q_SIGNALS:
  /// Hide pressed (`query` -1: the whole head) or, while hidden, pressed again to end the round.
  void hideRequested(int query);
  void endRequested();
  void revealRequested();
  /// Another row (or the whole head) chosen while the round is still being guessed.
  void scopeChosen(int query);
  void tallyEntered(const QString& text);

 private:
  QComboBox* scope_ = nullptr;
  QPushButton* hide_ = nullptr;
  QPushButton* reveal_ = nullptr;
  QLineEdit* tally_ = nullptr;
  QLabel* message_ = nullptr;
  bool active_ = false;
};

}  // namespace ascope
