#include "widgets/attention/prediction_round.h"

#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/quiz/guess_layer.h"
#include "widgets/quiz/prediction_bar.h"

#include <QShortcut>

namespace ascope {

PredictionRound::PredictionRound(AttentionHeatmapView* view, PredictionBar* bar, QWidget* keys_host)
    : QObject(keys_host), view_(view), bar_(bar) {
  connect(view_, &HeatmapView::cellClicked, this, [this](int row, int key) {
    if (!active_ || revealed_) return;
    cursor_ = QPoint(key, row);
    toggle(row, key);
  });
  connect(bar_, &PredictionBar::hideRequested, this, &PredictionRound::start);
  connect(bar_, &PredictionBar::endRequested, this, &PredictionRound::end);
  connect(bar_, &PredictionBar::revealRequested, this, &PredictionRound::reveal);
  connect(bar_, &PredictionBar::scopeChosen, this, &PredictionRound::setQuery);
  connect(bar_, &PredictionBar::tallyEntered, this, [this](const QString& text) {
    const QString problem = enterTally(text);
    if (!problem.isEmpty()) bar_->setMessage(problem, false);
  });
  addKeys(keys_host);
  syncBar();
}

void PredictionRound::addKeys(QWidget* host) {
  const auto add = [this, host](const QKeySequence& key, auto action) {
    auto* shortcut = new QShortcut(key, host);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, action);
    return shortcut;
  };
  add(QKeySequence(Qt::Key_H), [this] {
    if (active_) {
      end();
    } else {
      start(-1);
    }
  });
  guessing_keys_ = {
      add(QKeySequence(Qt::Key_Left), [this] { moveCursor(0, -1); }),
      add(QKeySequence(Qt::Key_Right), [this] { moveCursor(0, 1); }),
      add(QKeySequence(Qt::Key_Up), [this] { moveCursor(-1, 0); }),
      add(QKeySequence(Qt::Key_Down), [this] { moveCursor(1, 0); }),
      add(QKeySequence(Qt::Key_Space), [this] { toggle(cursor_.y(), cursor_.x()); }),
      add(QKeySequence(Qt::Key_Plus), [this] { addVotesAtCursor(1); }),
      add(QKeySequence(Qt::Key_Equal), [this] { addVotesAtCursor(1); }),
      add(QKeySequence(Qt::Key_Minus), [this] { addVotesAtCursor(-1); }),
      add(QKeySequence(Qt::Key_Q), [this] { setQuery(query_ < 0 ? cursor_.y() : -1); }),
      add(QKeySequence(Qt::Key_R), [this] { reveal(); }),
  };
  // Enter toggles too, but only on the head itself: in the votes field it enters the tally.
  for (const Qt::Key key : {Qt::Key_Return, Qt::Key_Enter}) {
    auto* enter = new QShortcut(QKeySequence(key), view_);
    enter->setContext(Qt::WidgetShortcut);
    connect(enter, &QShortcut::activated, this, [this] { toggle(cursor_.y(), cursor_.x()); });
    guessing_keys_ << enter;
  }
}

void PredictionRound::start(int query) {
  const LabeledMatrix& m = view_->weights();
  if (!m.isValid()) return;
  const bool was_active = active_;
  active_ = true;
  revealed_ = false;
  rows_ = m.rows;
  cols_ = m.cols;
  query_ = query >= 0 && query < rows_ ? query : -1;
  guess_.clear();
  cursor_ = QPoint(0, query_ >= 0 ? query_ : 0);
  view_->guessLayer()->setCover(true, query_);
  showGuess();
  view_->setFocus(Qt::OtherFocusReason);
  if (!was_active) Q_EMIT activeChanged(true);
}

void PredictionRound::reveal() {
  if (!active_ || revealed_) return;
  revealed_ = true;
  view_->guessLayer()->setCover(false, query_);
  view_->guessLayer()->setCursor(QPoint(-1, -1));
  syncBar();
  Q_EMIT revealedScore(score());
}

void PredictionRound::end() {
  if (!active_) return;
  active_ = false;
  revealed_ = false;
  guess_.clear();
  view_->guessLayer()->setCover(false, -1);
  view_->guessLayer()->setGuess(guess_);
  view_->guessLayer()->setCursor(QPoint(-1, -1));
  syncBar();
  Q_EMIT activeChanged(false);
}

void PredictionRound::setQuery(int query) {
  if (!active_ || revealed_) return;
  query_ = query >= 0 && query < rows_ ? query : -1;
  if (query_ >= 0) {
    AttentionGuess kept;
    for (int key = 0; key < cols_; ++key) kept.setVotes(query_, key, guess_.votes(query_, key));
    guess_ = kept;
    cursor_.setY(query_);
  }
  view_->guessLayer()->setCover(true, query_);
  showGuess();
}

GuessScore PredictionRound::score() const {
  return scoreGuess(view_->weights(), guess_,
                    [this](int row, int key) { return isMasked(row, key); });
}

bool PredictionRound::isMasked(int row, int key) const {
  return view_->display().isMasked(view_->weights(), row, key);
}

void PredictionRound::toggle(int row, int key) {
  if (!active_ || revealed_ || row < 0 || row >= rows_ || key < 0 || key >= cols_ || !asks(row))
    return;
  if (isMasked(row, key)) {
    bar_->setMessage(tr("That cell is masked: attention cannot go there."), false);
    return;
  }
  guess_.toggle(row, key);
  showGuess();
}

QString PredictionRound::enterTally(const QString& text) {
  if (!active_ || revealed_) return tr("Hide a head first.");
  if (query_ < 0) return tr("A tally is for one query's row: choose the row first.");
  QStringList keys;
  for (int key = 0; key < cols_; ++key) keys << view_->weights().colLabel(key);
  AttentionGuess tallied = guess_;
  const QString problem = applyTally(text, keys, query_, &tallied);
  if (!problem.isEmpty()) return problem;
  guess_ = tallied;
  showGuess();
  return {};
}

void PredictionRound::headShown() {
  if (!active_) return;
  const LabeledMatrix& m = view_->weights();
  if (m.rows != rows_ || m.cols != cols_) end();
}

void PredictionRound::moveCursor(int d_row, int d_col) {
  if (query_ >= 0) d_row = 0;  // one row asked about: the cursor stays on it
  cursor_ = QPoint(std::clamp(cursor_.x() + d_col, 0, std::max(0, cols_ - 1)),
                   std::clamp(cursor_.y() + d_row, 0, std::max(0, rows_ - 1)));
  view_->guessLayer()->setCursor(cursor_);
}

void PredictionRound::addVotesAtCursor(int delta) {
  const int row = cursor_.y(), key = cursor_.x();
  if (!asks(row) || isMasked(row, key)) return;
  guess_.addVotes(row, key, delta);
  showGuess();
}

void PredictionRound::showGuess() {
  view_->guessLayer()->setGuess(guess_);
  view_->guessLayer()->setCursor(revealed_ ? QPoint(-1, -1) : cursor_);
  syncBar();
  Q_EMIT guessChanged();
}

void PredictionRound::syncBar() {
  QStringList queries;
  for (int row = 0; row < view_->weights().rows; ++row) queries << view_->weights().rowLabel(row);
  bar_->setQueries(queries);
  bar_->showState(active_, revealed_, query_);
  for (QShortcut* key : guessing_keys_) key->setEnabled(active_ && !revealed_);
  if (!active_) {
    bar_->setMessage({}, false);
  } else if (revealed_) {
    bar_->setMessage(describeScore(score()), true);
  } else {
    const int guessed = guess_.rows().size();
    bar_->setMessage(
        (query_ < 0 ? tr("Which keys does each query look at? ")
                    : tr("Which keys does “%1” look at? ").arg(view_->weights().rowLabel(query_))) +
            tr("Click cells, or arrows and Space (+/− for votes); R reveals.") +
            (guessed > 0 ? tr(" %n row(s) guessed.", nullptr, guessed) : QString()),
        false);
  }
}

}  // namespace ascope
