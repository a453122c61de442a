#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <deque>

class QComboBox;
class QPlainTextEdit;

namespace ascope {

/// Severity of a log line; same order and values as spdlog::level::level_enum, so the app can
/// static_cast a spdlog level.
enum class LogLevel { Trace = 0, Debug = 1, Info = 2, Warning = 3, Error = 4, Critical = 5 };

/// Read-only monospace log, coloured by level, bounded (oldest lines dropped), filterable by
/// minimum level, following new lines unless the user has scrolled up to read.
class LogPanel : public QWidget {
  Q_OBJECT

 public:
  explicit LogPanel(QWidget* parent = nullptr);

  void appendLine(LogLevel level, const QString& text);
  void clear();

  /// Lines below this level are kept but hidden.
  void setMinimumLevel(LogLevel level);
  LogLevel minimumLevel() const { return minimum_; }
  /// At most this many lines are kept (default 5000).
  void setMaximumLines(int lines);
  int maximumLines() const { return max_lines_; }

  int storedLineCount() const { return static_cast<int>(lines_.size()); }
  int visibleLineCount() const;
  QPlainTextEdit* view() const { return view_; }
  QComboBox* levelFilter() const { return filter_; }

  static QString levelName(LogLevel level);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  struct Line {
    LogLevel level;
    QString text;
  };

  void rebuild();
  void appendToView(const Line& line);
  void updateColors();

  std::deque<Line> lines_;  // bounded by max_lines_; pop_front is O(1) on a deque
  LogLevel minimum_ = LogLevel::Trace;
  int max_lines_ = 5000;
  int shown_ = 0;     // lines put into the view since it was last cleared
  QColor colors_[6];  // by LogLevel, derived from the palette
  QPlainTextEdit* view_ = nullptr;
  QComboBox* filter_ = nullptr;
};

}  // namespace ascope
