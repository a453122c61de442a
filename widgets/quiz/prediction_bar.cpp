#include "widgets/quiz/prediction_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace ascope {

PredictionBar::PredictionBar(QWidget* parent) : QWidget(parent) {
  scope_ = new QComboBox(this);
  scope_->setObjectName(QStringLiteral("predictionScope"));
  scope_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  scope_->setMinimumContentsLength(10);
  scope_->setToolTip(
      tr("What the class predicts: the whole head, or one query's row (Q narrows "
         "the round to the row under the cursor)"));
  hide_ = new QPushButton(tr("Hide"), this);
  hide_->setObjectName(QStringLiteral("predictionHide"));
  hide_->setToolTip(tr("Hide the pattern so the class predicts it first (H)"));
  reveal_ = new QPushButton(tr("Reveal"), this);
  reveal_->setObjectName(QStringLiteral("predictionReveal"));
  reveal_->setToolTip(tr("Show the weights with the guess marked, and its score (R)"));
  tally_ = new QLineEdit(this);
  tally_->setObjectName(QStringLiteral("predictionTally"));
  tally_->setPlaceholderText(tr("votes: trophy 12, suitcase 5"));
  tally_->setToolTip(tr("A show of hands for one query's row: each key, then its votes; Enter"));
  tally_->setClearButtonEnabled(true);
  // Shown in the Attention dock while a round runs: it must not widen the dock on a small screen.
  tally_->setMinimumWidth(tally_->fontMetrics().averageCharWidth() * 8);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("predictionMessage"));
  message_->setWordWrap(true);
  message_->setTextFormat(Qt::PlainText);

  auto* controls = new QHBoxLayout;
  controls->setContentsMargins(0, 0, 0, 0);
  controls->addWidget(new QLabel(tr("Ask first about:"), this));
  controls->addWidget(scope_);
  controls->addWidget(hide_);
  controls->addWidget(reveal_);
  controls->addWidget(tally_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 0, 6, 0);
  layout->setSpacing(2);
  layout->addLayout(controls);
  layout->addWidget(message_);

  connect(hide_, &QPushButton::clicked, this, [this] {
    if (active_) {
      Q_EMIT endRequested();
    } else {
      Q_EMIT hideRequested(scope_->currentIndex() - 1);
    }
  });
  connect(reveal_, &QPushButton::clicked, this, &PredictionBar::revealRequested);
  connect(scope_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (active_) Q_EMIT scopeChosen(index - 1);
  });
  connect(tally_, &QLineEdit::returnPressed, this, [this] { Q_EMIT tallyEntered(tally_->text()); });
  showState(false, false, -1);
}

void PredictionBar::setQueries(const QStringList& labels) {
  QStringList items{tr("whole head")};
  for (const QString& label : labels) items << tr("“%1”").arg(label);
  QStringList shown;
  for (int i = 0; i < scope_->count(); ++i) shown << scope_->itemText(i);
  if (shown == items) return;
  const QSignalBlocker block(scope_);
  const int current = scope_->currentIndex();
  scope_->clear();
  scope_->addItems(items);
  scope_->setCurrentIndex(current >= 0 && current < items.size() ? current : 0);
}

void PredictionBar::showState(bool active, bool revealed, int query) {
  active_ = active;
  {
    const QSignalBlocker block(scope_);
    if (query + 1 < scope_->count()) scope_->setCurrentIndex(query + 1);
  }
  hide_->setText(active ? tr("End") : tr("Hide"));
  hide_->setToolTip(active ? tr("End the round: the head as usual (H)")
                           : tr("Hide the pattern so the class predicts it first (H)"));
  scope_->setEnabled(!revealed);
  reveal_->setEnabled(active && !revealed);
  tally_->setEnabled(active && !revealed && query >= 0);
}

void PredictionBar::setMessage(const QString& text, bool emphasised) {
  QFont font = this->font();
  font.setBold(emphasised);
  message_->setFont(font);
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

}  // namespace ascope
