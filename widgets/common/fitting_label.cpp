#include "widgets/common/fitting_label.h"

#include <QEvent>
#include <QResizeEvent>
#include <QTextDocument>

#include <cmath>

namespace ascope {

FittingLabel::FittingLabel(QWidget* parent) : QLabel(parent) {
  setWordWrap(false);
  setTextFormat(Qt::AutoText);
  // The layout may give it less than its text: it picks a shorter version instead of growing.
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void FittingLabel::setVersions(const QStringList& versions) {
  if (versions == versions_) return;
  versions_ = versions;
  fit();
}

int FittingLabel::widthOf(const QString& text) const {
  if (!Qt::mightBeRichText(text)) return fontMetrics().horizontalAdvance(text);
  QTextDocument document;
  document.setDefaultFont(font());
  document.setDocumentMargin(0);
  document.setHtml(text);
  return static_cast<int>(std::ceil(document.idealWidth()));
}

void FittingLabel::fit() {
  if (versions_.isEmpty()) {
    shown_ = -1;
    clear();
    setToolTip({});
    setProperty(kFullTextProperty, QVariant());
    return;
  }
  const int room = contentsRect().width() - 2 * margin() - std::max(0, indent());
  int chosen = static_cast<int>(versions_.size());
  for (int i = 0; i < versions_.size(); ++i) {
    if (widthOf(versions_[i]) <= room) {
      chosen = i;
      break;
    }
  }
  shown_ = chosen;
  QString text;
  if (chosen < versions_.size()) {
    text = versions_[chosen];
  } else {
    // Even the shortest is too long: its plain words, elided.
    QTextDocument document;
    document.setHtml(versions_.back());
    text = fontMetrics().elidedText(document.toPlainText(), Qt::ElideRight, std::max(0, room));
  }
  QLabel::setText(text);
  const bool shortened = chosen != 0;
  QTextDocument full;
  full.setHtml(versions_.front());
  const QString full_text = full.toPlainText();
  setToolTip(shortened ? full_text : QString());
  setProperty(kFullTextProperty, shortened ? QVariant(full_text) : QVariant());
}

QSize FittingLabel::minimumSizeHint() const {
  return {0, QLabel::minimumSizeHint().height()};
}

QSize FittingLabel::sizeHint() const {
  const QSize hint = QLabel::sizeHint();
  const int full = versions_.isEmpty() ? 0 : widthOf(versions_.front()) + 2 * margin();
  return {full, hint.height()};
}

void FittingLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  if (event->size().width() != event->oldSize().width()) fit();
}

void FittingLabel::changeEvent(QEvent* event) {
  QLabel::changeEvent(event);
  if (event->type() == QEvent::FontChange) fit();
}

}  // namespace ascope
