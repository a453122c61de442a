#include "app/gui/views/log/log_presenter.h"

#include <spdlog/sinks/qt_sinks.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <QPlainTextEdit>
#include <QWidget>

#include <algorithm>

#include "widgets/common/log_panel.h"

namespace ascope {
namespace {

LogLevel levelOfLetter(QChar letter) {
  switch (letter.toLatin1()) {
    case 'T':
      return LogLevel::Trace;
    case 'D':
      return LogLevel::Debug;
    case 'W':
      return LogLevel::Warning;
    case 'E':
      return LogLevel::Error;
    case 'C':
      return LogLevel::Critical;
    default:
      return LogLevel::Info;
  }
}

}  // namespace

LogPresenter::LogPresenter(QWidget* panel_parent) : QObject(panel_parent) {
  panel_ = new LogPanel(panel_parent);
  panel_->setObjectName(QStringLiteral("logPanel"));
  panel_->view()->setLineWrapMode(QPlainTextEdit::WidgetWidth);  // narrow dock, long lines
  auto sink = std::make_shared<spdlog::sinks::qt_sink_mt>(this, "append");
  // %L is the level's letter; append() turns it back into a LogLevel for the panel's colours.
  sink->set_pattern("%L%H:%M:%S %v");
  sink_ = sink;
  std::shared_ptr<spdlog::logger> logger = spdlog::default_logger();
  if (logger->name() != "app") {
    logger = std::make_shared<spdlog::logger>(
        "app", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    spdlog::set_default_logger(logger);
  }
  logger->sinks().push_back(sink_);
}

LogPresenter::~LogPresenter() {
  auto& sinks = spdlog::default_logger()->sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
}

void LogPresenter::append(const QString& line) {
  if (line.isEmpty()) return;
  panel_->appendLine(levelOfLetter(line.front()), line.mid(1));
}

QJsonObject LogPresenter::report() const {
  return {{QStringLiteral("log_lines"), panel_->storedLineCount()}};
}

void LogPresenter::appendRunLine(const LogLine& line) {
  panel_->appendLine(static_cast<LogLevel>(line.level), QString::fromStdString(line.text));
}

void LogPresenter::takeNews(const RunNews& news) {
  for (const LogLine& line : news.log) appendRunLine(line);
}

}  // namespace ascope
