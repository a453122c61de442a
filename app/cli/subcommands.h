#pragma once
// Each command declares its subcommand and options on the program's CLI11 parser and returns what
// runs it once the command line has been parsed (the options are bound to state it owns).
#include <functional>

namespace CLI {
class App;
}

namespace ascope::cli {

struct Subcommand {
  CLI::App* parser = nullptr;  ///< owned by the parent App; parsed() tells whether it was chosen
  std::function<int()> run;    ///< returns the exit code
};

Subcommand addTrainCommand(CLI::App& app);
Subcommand addInferCommand(CLI::App& app);
Subcommand addBenchCommand(CLI::App& app);
Subcommand addDownloadCommand(CLI::App& app);
Subcommand addDownloadModelCommand(CLI::App& app);
Subcommand addAblateCommand(CLI::App& app);
Subcommand addInspectCommand(CLI::App& app);
Subcommand addEvaluateCommand(CLI::App& app);

}  // namespace ascope::cli
