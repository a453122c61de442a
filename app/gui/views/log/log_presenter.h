#pragma once
// The Log dock's one owner, and the app's own logging: spdlog's default logger writes to stderr
// and, through spdlog's Qt sink (spdlog/sinks/qt_sinks.h), into the Log dock next to the
// trainer's lines. The sink may be called from any thread; it invokes append() on this object's
// (GUI) thread.
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <memory>

#include "app/gui/views/news/run_news_reader.h"
#include "engine/vocabulary/log_line.h"

class QWidget;

namespace spdlog::sinks {
class sink;
}

namespace ascope {

class LogPanel;

class LogPresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Creates the dock's panel (a child of `panel_parent`) and installs the Qt sink on spdlog's
  /// default logger until destroyed.
  explicit LogPresenter(QWidget* panel_parent);
  ~LogPresenter() override;

  LogPanel* panel() const { return panel_; }
  /// Called by the sink with one formatted line: level letter, then "HH:MM:SS text".
  Q_INVOKABLE void append(const QString& line);
  /// A line of the run's own log (the trainer's, or an opened run's log.txt).
  void appendRunLine(const LogLine& line);
  // RunNewsReader: the run's log lines; the log is kept from one run to the next.
  void clearRun() override {}
  void takeNews(const RunNews& news) override;
  /// "log_lines": the lines the dock keeps.
  QJsonObject report() const override;

 private:
  LogPanel* panel_;
  std::shared_ptr<spdlog::sinks::sink> sink_;
};

}  // namespace ascope
