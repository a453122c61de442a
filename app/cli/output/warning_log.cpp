#include "app/cli/output/warning_log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace ascope::cli {

void logWarningsToStderr() {
  // Get before make: a test may run a command twice in one process.
  auto logger = spdlog::get("download");
  if (!logger) logger = spdlog::stderr_color_mt("download");
  logger->set_pattern("%l: %v");
  logger->set_level(spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

}  // namespace ascope::cli
