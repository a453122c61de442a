#include "widgets/common/log_panel.h"

#include "widgets/common/plot_theme.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ascope {

LogPanel::LogPanel(QWidget* parent) : QWidget(parent) {
  view_ = new QPlainTextEdit(this);
  view_->setReadOnly(true);
  view_->setUndoRedoEnabled(false);
  view_->setLineWrapMode(QPlainTextEdit::NoWrap);
  view_->setMaximumBlockCount(max_lines_);
  view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  view_->setFrameShape(QFrame::NoFrame);

  filter_ = new QComboBox(this);
  filter_->addItem(tr("Everything"), static_cast<int>(LogLevel::Trace));
  filter_->addItem(tr("Debug and above"), static_cast<int>(LogLevel::Debug));
  filter_->addItem(tr("Info and above"), static_cast<int>(LogLevel::Info));
  filter_->addItem(tr("Warnings and errors"), static_cast<int>(LogLevel::Warning));
  filter_->addItem(tr("Errors only"), static_cast<int>(LogLevel::Error));
  auto* clear_button = new QToolButton(this);
  clear_button->setText(tr("Clear"));
  clear_button->setAutoRaise(true);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 2, 6, 0);
  bar->addWidget(new QLabel(tr("Show:"), this));
  bar->addWidget(filter_);
  bar->addStretch(1);
  bar->addWidget(clear_button);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);

  connect(filter_, &QComboBox::currentIndexChanged, this,
          [this] { setMinimumLevel(static_cast<LogLevel>(filter_->currentData().toInt())); });
  connect(clear_button, &QToolButton::clicked, this, &LogPanel::clear);
  updateColors();
}

void LogPanel::appendLine(LogLevel level, const QString& text) {
  lines_.push_back({level, text});
  while (static_cast<int>(lines_.size()) > max_lines_) lines_.pop_front();
  if (level >= minimum_) appendToView(lines_.back());
}

void LogPanel::clear() {
  lines_.clear();
  view_->clear();
  shown_ = 0;
}

void LogPanel::setMinimumLevel(LogLevel level) {
  minimum_ = level;
  {
    const QSignalBlocker block(filter_);
    filter_->setCurrentIndex(filter_->findData(static_cast<int>(level)));
  }
  rebuild();
}

void LogPanel::setMaximumLines(int lines) {
  max_lines_ = std::max(1, lines);
  while (static_cast<int>(lines_.size()) > max_lines_) lines_.pop_front();
  view_->setMaximumBlockCount(max_lines_);
  rebuild();
}

int LogPanel::visibleLineCount() const {
  // An empty document still has one (empty) block.
  return shown_ == 0 ? 0 : view_->document()->blockCount();
}

QString LogPanel::levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Trace:
      return QStringLiteral("trace");
    case LogLevel::Debug:
      return QStringLiteral("debug");
    case LogLevel::Info:
      return QStringLiteral("info");
    case LogLevel::Warning:
      return QStringLiteral("warning");
    case LogLevel::Error:
      return QStringLiteral("error");
    case LogLevel::Critical:
      return QStringLiteral("critical");
  }
  return QString();
}

void LogPanel::updateColors() {
  const PlotTheme theme = PlotTheme::fromPalette(view_->palette(), font());
  colors_[static_cast<int>(LogLevel::Trace)] = theme.muted;
  colors_[static_cast<int>(LogLevel::Debug)] = theme.muted;
  colors_[static_cast<int>(LogLevel::Info)] = theme.foreground;
  colors_[static_cast<int>(LogLevel::Warning)] = theme.warning;
  colors_[static_cast<int>(LogLevel::Error)] = theme.bad;
  colors_[static_cast<int>(LogLevel::Critical)] = theme.bad;
}

void LogPanel::appendToView(const Line& line) {
  QScrollBar* bar = view_->verticalScrollBar();
  // Follow the tail only if the reader is already there; someone scrolled up is reading.
  const bool at_bottom = bar->value() >= bar->maximum() - 2;
  QTextCharFormat format;
  format.setForeground(colors_[std::clamp(static_cast<int>(line.level), 0, 5)]);
  if (line.level >= LogLevel::Error) format.setFontWeight(QFont::DemiBold);
  QTextCursor cursor(view_->document());
  cursor.movePosition(QTextCursor::End);
  if (shown_++ > 0) cursor.insertBlock();
  cursor.insertText(line.text, format);
  if (at_bottom) bar->setValue(bar->maximum());
}

void LogPanel::rebuild() {
  view_->clear();
  shown_ = 0;
  for (const Line& line : lines_)
    if (line.level >= minimum_) appendToView(line);
  view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->maximum());
}

void LogPanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) {  // level colours follow light/dark
    updateColors();
    rebuild();
  }
}

}  // namespace ascope
