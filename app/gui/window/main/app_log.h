#pragma once
// The app's own logging: spdlog's default logger writes to stderr and, through spdlog's Qt sink
// (spdlog/sinks/qt_sinks.h), into the Log dock next to the trainer's lines. The sink may be called
// from any thread; it invokes append() on this object's (GUI) thread.
#include <QObject>
#include <QString>

#include <memory>

namespace spdlog::sinks {
class sink;
}

namespace ascope {

class LogPanel;

class AppLog : public QObject {
  Q_OBJECT

 public:
  /// Installs the Qt sink on spdlog's default logger until destroyed.
  explicit AppLog(LogPanel* panel, QObject* parent = nullptr);
  ~AppLog() override;

  /// Called by the sink with one formatted line: level letter, then "HH:MM:SS text".
  Q_INVOKABLE void append(const QString& line);

 private:
  LogPanel* panel_;
  std::shared_ptr<spdlog::sinks::sink> sink_;
};

}  // namespace ascope
