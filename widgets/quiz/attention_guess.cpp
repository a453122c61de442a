#include "widgets/quiz/attention_guess.h"

#include <QObject>
#include <QRegularExpression>

#include <cmath>

namespace ascope {

void AttentionGuess::toggle(int row, int key) {
  setVotes(row, key, votes(row, key) > 0 ? 0 : 1);
}

void AttentionGuess::addVotes(int row, int key, int delta) {
  setVotes(row, key, std::max(0, votes(row, key) + delta));
}

void AttentionGuess::setVotes(int row, int key, int votes) {
  if (votes > 0) {
    votes_[row][key] = votes;
    return;
  }
  auto it = votes_.find(row);
  if (it == votes_.end()) return;
  it->remove(key);
  if (it->isEmpty()) votes_.erase(it);
}

int AttentionGuess::votes(int row, int key) const {
  auto it = votes_.constFind(row);
  return it == votes_.cend() ? 0 : it->value(key, 0);
}

QList<int> AttentionGuess::rows() const {
  return votes_.keys();
}

GuessScore scoreGuess(const LabeledMatrix& weights, const AttentionGuess& guess,
                      const std::function<bool(int, int)>& masked) {
  const auto is_masked = [&](int r, int c) {
    return std::isnan(weights.at(r, c)) || (masked && masked(r, c));
  };
  GuessScore score;
  double held_sum = 0;
  for (auto row = guess.all().cbegin(); row != guess.all().cend(); ++row) {
    const int r = row.key();
    if (r < 0 || r >= weights.rows) continue;
    int top = -1;
    for (int c = 0; c < weights.cols; ++c) {
      if (!is_masked(r, c) && (top < 0 || weights.at(r, c) > weights.at(r, top))) top = c;
    }
    double held = 0;
    int most_votes = 0;
    for (auto key = row->cbegin(); key != row->cend(); ++key) {
      const int c = key.key();
      if (c < 0 || c >= weights.cols || is_masked(r, c)) continue;
      held += weights.at(r, c);
      most_votes = std::max(most_votes, key.value());
    }
    ++score.rows;
    held_sum += held;
    const int top_votes = top >= 0 ? row->value(top, 0) : 0;
    if (top_votes > 0 && top_votes == most_votes) ++score.top_hits;
    if (top >= 0) {
      score.top_key = weights.colLabel(top);
      score.top_weight = weights.at(r, top);
    }
  }
  score.held = score.rows > 0 ? held_sum / score.rows : 0.0;
  return score;
}

QString describeScore(const GuessScore& score) {
  if (score.rows == 0) return QObject::tr("No guess was made.");
  QString text = QObject::tr("Your guess held %1% of the weight")
                     .arg(static_cast<int>(std::lround(score.held * 100)));
  if (score.rows > 1) {
    return text +
           QObject::tr(" · top key guessed in %1 of %2 rows").arg(score.top_hits).arg(score.rows);
  }
  if (score.top_hits == 1)
    return text + QObject::tr(" · top key “%1” guessed ✓").arg(score.top_key);
  return text + QObject::tr(" · the top key was “%1” (%2)")
                    .arg(score.top_key)
                    .arg(score.top_weight, 0, 'f', 2);
}

QString applyTally(const QString& text, const QStringList& key_labels, int row,
                   AttentionGuess* guess) {
  // "label votes" pairs split at commas or semicolons; a label may itself hold spaces.
  static const QRegularExpression pair(QStringLiteral(R"(^\s*(.+?)\s+(\d+)\s*$)"));
  QMap<int, int> votes;
  for (const QString& part : text.split(QRegularExpression(QStringLiteral("[,;]")))) {
    if (part.trimmed().isEmpty()) continue;
    const QRegularExpressionMatch m = pair.match(part);
    if (!m.hasMatch()) {
      return QObject::tr("“%1”: write a token then its votes, e.g. “trophy 12”")
          .arg(part.trimmed());
    }
    const int key = key_labels.indexOf(m.captured(1));
    if (key < 0) return QObject::tr("“%1” is not a key of this head").arg(m.captured(1));
    bool ok = false;
    const int count = m.captured(2).toInt(&ok);
    if (!ok || count > 100000) return QObject::tr("“%1”: too many votes").arg(m.captured(2));
    votes[key] += count;
  }
  if (votes.isEmpty()) return QObject::tr("No votes: write e.g. “trophy 12, suitcase 5”");
  for (int c = 0; c < key_labels.size(); ++c) guess->setVotes(row, c, 0);
  for (auto it = votes.cbegin(); it != votes.cend(); ++it)
    guess->setVotes(row, it.key(), it.value());
  return {};
}

}  // namespace ascope
