#include "widgets/decoding/decoding_plot.h"

namespace ascope {
namespace {

constexpr int kMaxTokenChars = 14;

double decodingLuma(const QColor& c) {
  return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
}

}  // namespace

DecodingPlot::DecodingPlot(QWidget* parent) : ThemedPlot(parent) {
  plotLayout()->insertRow(0);
  title_ = new QCPTextElement(this, QString(), theme().title_font);
  title_->setTextColor(theme().foreground);
  title_->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
  title_->setMargins(QMargins(kSideMargin, 4, kSideMargin, 2));
  plotLayout()->addElement(0, 0, title_);
  // The strips are sized to their content (setFixedHeight); a gap between rows would squeeze it.
  plotLayout()->setRowSpacing(0);
}

QString DecodingPlot::shortToken(const QString& token) {
  return token.size() > kMaxTokenChars ? token.left(kMaxTokenChars - 1) + QStringLiteral("…")
                                       : token;
}

void DecodingPlot::setTitle(const QString& text) {
  title_->setText(text);
  title_->setTextColor(theme().foreground);
}

int DecodingPlot::titleHeight() const {
  const QFontMetrics title_fm(theme().title_font);
  return title_fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip, title_->text()).height() + 6;
}

QColor DecodingPlot::textOn(const QColor& fill) {
  return decodingLuma(fill) > 140 ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace ascope
