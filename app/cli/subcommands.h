#pragma once
// Each command declares its subcommand and options on the program's CLI11 parser and returns what
// runs it once the command line has been parsed (the options are bound to state it owns).
#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ascope::cli {

struct Subcommand {
  CLI::App* parser = nullptr;  ///< owned by the parent App; parsed() tells whether it was chosen
  std::function<int()> run;    ///< returns the exit code
};

/// `args`: the whole command line after the program name (`--nproc` starts the program again with
/// it, once per rank).
Subcommand addTrainCommand(CLI::App& app, const std::vector<std::string>& args);
Subcommand addInferCommand(CLI::App& app);
Subcommand addBenchCommand(CLI::App& app);
Subcommand addDownloadCommand(CLI::App& app);
Subcommand addDownloadModelCommand(CLI::App& app);
Subcommand addAblateCommand(CLI::App& app);
Subcommand addInspectCommand(CLI::App& app);
Subcommand addEvaluateCommand(CLI::App& app);
Subcommand addHandoutCommand(CLI::App& app);
Subcommand addExplainCommand(CLI::App& app);
Subcommand addSplitCommand(CLI::App& app);

}  // namespace ascope::cli
