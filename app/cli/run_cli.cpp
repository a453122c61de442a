#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"
#include "app/cli/task_help.h"
#include "app/version.h"

namespace ascope::cli {

int runCli(const std::vector<std::string>& args) {
  try {
    CLI::App app("Train transformers and query trained runs without a GUI.", "attentionscope-cli");
    useHouseHelpLayout(app);
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("attentionscope-cli ") + kVersion,
                         "Show the version.");
    const std::vector<Subcommand> commands = {
        addTrainCommand(app, args), addInferCommand(app),    addAblateCommand(app),
        addBenchCommand(app),       addDownloadCommand(app), addDownloadModelCommand(app),
        addInspectCommand(app),     addEvaluateCommand(app), addHandoutCommand(app),
        addExplainCommand(app),     addSplitCommand(app)};
    for (const Subcommand& command : commands) command.parser->group("Commands");
    app.footer(taskListing() +
               "\n'attentionscope-cli <command> --help' describes each command's options.");
    if (!args.empty() && args[0] == "help") return *parseCommandLine(app, {"--help"});
    // CLI11 would say "A subcommand is required" and leave the word the user typed unmentioned.
    std::vector<std::string> names;
    for (const Subcommand& command : commands) names.push_back(command.parser->get_name());
    const bool known =
        !args.empty() && (args[0] == "-h" || args[0] == "--help" || args[0] == "--version" ||
                          std::find(names.begin(), names.end(), args[0]) != names.end());
    if (!known) {
      const std::string expected = "(expected " + joinWithOr(names) + ")";
      return usageError(args.empty() ? "a command is required " + expected
                        : args[0].rfind('-', 0) == 0
                            ? "unknown option " + args[0]
                            : "unknown command \"" + args[0] + "\" " + expected,
                        "");
    }
    if (const std::optional<int> exit_code = parseCommandLine(app, args)) return *exit_code;
    for (const Subcommand& command : commands) {
      if (command.parser->parsed()) return command.run();
    }
    return usageError("no command given", "");
  } catch (const std::exception& e) {
    // Never a stack dump: LibTorch errors carry a backtrace after the first line.
    const std::string what = e.what();
    std::fprintf(stderr, "attentionscope-cli: %s\n", what.substr(0, what.find('\n')).c_str());
    return 1;
  }
}

int usageError(const std::string& message, const std::string& command) {
  std::fprintf(stderr, "attentionscope-cli: %s (see 'attentionscope-cli %s--help')\n",
               message.c_str(), command.empty() ? "" : (command + " ").c_str());
  return 2;
}

}  // namespace ascope::cli
