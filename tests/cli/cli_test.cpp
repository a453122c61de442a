#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli_process.h"
#include "test_paths.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

using ascope::cli_test::Outcome;
using ascope::cli_test::runCli;

int lineCount(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(Cli, UnknownTaskIsOneLineAndExitCode2) {
  const Outcome o = runCli("train --task chess");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("unknown task \"chess\""), std::string::npos) << o.output;
  EXPECT_EQ(lineCount(o.output), 1) << o.output;
}

TEST(Cli, BadValuesNameTheOption) {
  Outcome o = runCli("train --task vit --batch-size abc");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("--batch-size: \"abc\" is not a whole number"), std::string::npos)
      << o.output;
  o = runCli("train --task vit --lr -1");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("--lr: Value -1 not in range (0 - 10)"), std::string::npos) << o.output;
  o = runCli("train --task vit --preset huge");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("unknown preset \"huge\""), std::string::npos) << o.output;
  o = runCli("train --task vit --frobnicate 3");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("not expected: 3 --frobnicate"), std::string::npos) << o.output;
  o = runCli("train --task vit --device tpu");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("--device: tpu not in {cpu,cuda}"), std::string::npos) << o.output;
}

TEST(Cli, BadPathsAreNamed) {
  Outcome o = runCli("train --task imdb --data /no/such/reviews.csv");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("/no/such/reviews.csv: no such file or folder"), std::string::npos)
      << o.output;
  o = runCli("train --resume /no/such/run");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("/no/such/run"), std::string::npos) << o.output;
  o = runCli("infer --run /no/such/run --text hello");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("no such run folder"), std::string::npos) << o.output;
}

TEST(Cli, NumbersOutsideTheirRangeAreRefused) {
  // Each: the command line, then what the one line must name.
  const std::pair<const char*, const char*> cases[] = {
      {"train --task vit --batch-size 9223372036854775807",
       "--batch-size: Value 9223372036854775807"},
      {"train --task vit --batch-size 99999999999999999999", "--batch-size: 99999999999999999999"},
      {"train --task vit --threads 100000", "--threads: Value 100000"},
      {"train --task vit --epochs 0", "--epochs: Value 0"},
      {"train --task vit --steps 1000000000001", "--steps: Value 1000000000001"},
      {"train --task vit --max-seconds 1e9", "--max-seconds: Value 1e9"},
      {"train --task vit --lr 10", "--lr: Value 10"},
      {"train --task vit --seed -1", "--seed: Value -1"},
      {"train --task vit --interrupt-at-step 0", "--interrupt-at-step: Value 0"},
      {"train --task vit --epochs 1.5", "--epochs: \"1.5\" is not a whole number"},
      {"bench --task vit --steps 0", "--steps: Value 0"},
      {"bench --task vit --batch-size 100000", "--batch-size: Value 100000"},
  };
  for (const auto& [args, expected] : cases) {
    const Outcome o = runCli(args);
    EXPECT_EQ(o.exit_code, 2) << args;
    EXPECT_NE(o.output.find(std::string("attentionscope-cli: ") + expected), std::string::npos)
        << args << ": " << o.output;
    EXPECT_EQ(lineCount(o.output), 1) << args << ": " << o.output;
  }
}

TEST(Cli, TextAndImageExcludeEachOther) {
  const Outcome o = runCli("infer --run /no/such/run --text hello --image cat.png");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("--text excludes --image"), std::string::npos) << o.output;
  EXPECT_EQ(lineCount(o.output), 1) << o.output;
  const Outcome neither = runCli("infer --run /no/such/run");
  EXPECT_EQ(neither.exit_code, 2);
  EXPECT_NE(neither.output.find("give --text"), std::string::npos) << neither.output;
}

TEST(Cli, ResumeExcludesWhatWouldMakeAnotherRun) {
  // Each option with a value it accepts on a new run.
  for (const std::string given :
       {"--task vit", "--preset tiny", "--data builtin", "--out /tmp/x", "--seed 7",
        "--batch-size 8", "--lr 0.01", "--source-lang de", "--target-lang de", "--model /tmp"}) {
    const std::string option = given.substr(0, given.find(' '));
    const Outcome o = runCli("train --resume /no/such/run " + given);
    EXPECT_EQ(o.exit_code, 2) << option;
    EXPECT_NE(o.output.find("excludes"), std::string::npos) << option << ": " << o.output;
    EXPECT_NE(o.output.find(option), std::string::npos) << option << ": " << o.output;
    EXPECT_EQ(lineCount(o.output), 1) << option << ": " << o.output;
  }
}

TEST(Cli, UnknownCommandsAndMissingValuesAreOneLine) {
  for (const char* args : {"", "dance", "--frobnicate", "train --task", "infer --text hi"}) {
    const Outcome o = runCli(args);
    EXPECT_EQ(o.exit_code, 2) << args;
    EXPECT_EQ(lineCount(o.output), 1) << args << ": " << o.output;
    EXPECT_EQ(o.output.rfind("attentionscope-cli: ", 0), 0u) << args << ": " << o.output;
  }
  EXPECT_NE(runCli("dance").output.find("unknown command \"dance\""), std::string::npos);
  EXPECT_NE(runCli("infer --text hi").output.find("--run is required"), std::string::npos);
}

TEST(Cli, HelpListsTheRegisteredTasks) {
  for (const char* args : {"--help", "train --help", "bench --help"}) {
    const Outcome o = runCli(args);
    EXPECT_EQ(o.exit_code, 0) << args;
    EXPECT_NE(o.output.find("tasks:"), std::string::npos) << args << ": " << o.output;
    EXPECT_NE(o.output.find("presets: "), std::string::npos) << args << ": " << o.output;
  }
}

TEST(Cli, HelpForEveryCommand) {
  for (const char* command :
       {"train", "infer", "bench", "ablate", "download", "download-model", "inspect"}) {
    const Outcome o = runCli(std::string(command) + " --help");
    EXPECT_EQ(o.exit_code, 0) << command;
    EXPECT_NE(o.output.find("usage: attentionscope-cli " + std::string(command)), std::string::npos)
        << o.output;
  }
  EXPECT_EQ(runCli("--help").exit_code, 0);
  EXPECT_EQ(runCli("dance").exit_code, 2);
}

// The version of CMakeLists.txt, as help2man reads it for the man page.
TEST(Cli, VersionIsTheProjectVersion) {
  const Outcome o = runCli("--version");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.output, "attentionscope-cli " ATTENTIONSCOPE_PROJECT_VERSION "\n");
  EXPECT_NE(runCli("--help").output.find("--version"), std::string::npos);
}

TEST(Cli, TrainThenInferOnTheRunFolder) {
  const fs::path run = fs::temp_directory_path() / "ascope_cli_test_run";
  fs::remove_all(run);
  const Outcome train = runCli("train --task imdb --preset tiny --steps 40 --out " + run.string());
  ASSERT_EQ(train.exit_code, 0) << train.output;
  EXPECT_NE(train.output.find("summary: finished after 40 steps"), std::string::npos)
      << train.output;
  // The final test covers the 50 reviews of the tiny preset's test split, once.
  const std::size_t test_line = train.output.find("  test: acc ");
  ASSERT_NE(test_line, std::string::npos) << train.output;
  const std::string test =
      train.output.substr(test_line, train.output.find('\n', test_line) - test_line);
  EXPECT_NE(test.find(" on 50 samples ("), std::string::npos) << test;
  EXPECT_TRUE(test.find("(best weights, step ") != std::string::npos ||
              test.find("(last weights, step 40)") != std::string::npos)
      << test;
  EXPECT_EQ(train.output.find("  test: acc ", test_line + 1), std::string::npos) << train.output;
  std::ifstream csv(run / "metrics.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("step,epoch,split,loss,accuracy,lr,samples_per_s", 0), 0u);
  int test_rows = 0;
  for (std::string row; std::getline(csv, row);)
    test_rows += row.find(",test,") != std::string::npos;
  EXPECT_EQ(test_rows, 1);
  EXPECT_TRUE(fs::exists(run / "config.json"));
  EXPECT_TRUE(fs::exists(run / "tokenizer.json"));
  EXPECT_TRUE(fs::exists(run / "checkpoints" / "last.pt"));
  EXPECT_FALSE(fs::is_empty(run / "attention"));

  const Outcome infer =
      runCli("infer --run " + run.string() + " --text \"a truly wonderful film\"");
  ASSERT_EQ(infer.exit_code, 0) << infer.output;
  EXPECT_TRUE(infer.output.rfind("positive (p=", 0) == 0 ||
              infer.output.rfind("negative (p=", 0) == 0)
      << infer.output;
  const Outcome wrong = runCli("infer --run " + run.string() + " --image /no/such.png");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.output.find("--image is for a run of "), std::string::npos) << wrong.output;

  // The folder holds a run now: a new run may not overwrite it ...
  const Outcome again = runCli("train --task imdb --preset tiny --steps 5 --out " + run.string());
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(again.output.find("already holds a run"), std::string::npos) << again.output;
  // ... a resume may not change what was trained ...
  const Outcome reseeded = runCli("train --resume " + run.string() + " --seed 7");
  EXPECT_EQ(reseeded.exit_code, 2);
  EXPECT_NE(reseeded.output.find("--resume excludes --seed"), std::string::npos) << reseeded.output;
  // ... but it may train longer.
  const Outcome longer = runCli("train --resume " + run.string() + " --steps 50");
  ASSERT_EQ(longer.exit_code, 0) << longer.output;
  EXPECT_NE(longer.output.find("summary: finished after 50 steps"), std::string::npos)
      << longer.output;
}

TEST(Cli, TrainFineTunesAPretrainedBertThenInfers) {
  const fs::path run = fs::temp_directory_path() / "ascope_cli_test_finetune";
  fs::remove_all(run);
  const std::string bert = std::string(ascope::test_paths::fixturesDir()) + "/hf/tiny_bert";
  const Outcome train = runCli("train --task imdb --model " + bert +
                               " --preset finetune --steps 5 --out " + run.string());
  ASSERT_EQ(train.exit_code, 0) << train.output;
  EXPECT_NE(train.output.find("summary: finished after 5 steps"), std::string::npos)
      << train.output;
  EXPECT_TRUE(fs::exists(run / "pretrained" / "vocab.txt"));
  const Outcome infer = runCli("infer --run " + run.string() + " --text \"a great film\"");
  ASSERT_EQ(infer.exit_code, 0) << infer.output;
  EXPECT_TRUE(infer.output.rfind("positive (p=", 0) == 0 ||
              infer.output.rfind("negative (p=", 0) == 0)
      << infer.output;

  const Outcome missing = runCli("train --task imdb --model " + run.string() +
                                 "/no_such_model --preset finetune --steps 5");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("no_such_model/config.json not found"), std::string::npos)
      << missing.output;
  EXPECT_EQ(lineCount(missing.output), 1) << missing.output;
}

// From pytorch_model.bin, as a folder without safetensors has it; inference resizes any image to
// the model's input as training did.
TEST(Cli, TrainFineTunesAPretrainedVitThenInfers) {
  const fs::path run = fs::temp_directory_path() / "ascope_cli_test_finetune_vit";
  fs::remove_all(run);
  const std::string vit = std::string(ascope::test_paths::fixturesDir()) + "/hf/tiny_vit_bin";
  const Outcome train = runCli("train --task vit --model " + vit +
                               " --preset finetune --steps 5 --out " + run.string());
  ASSERT_EQ(train.exit_code, 0) << train.output;
  EXPECT_NE(train.output.find("pretrained ViT"), std::string::npos) << train.output;
  EXPECT_NE(train.output.find("summary: finished after 5 steps"), std::string::npos)
      << train.output;
  EXPECT_TRUE(fs::exists(run / "pretrained" / "config.json"));
  EXPECT_TRUE(fs::exists(run / "classes.json"));
  const fs::path image = run / "picture.ppm";
  {
    std::ofstream out(image, std::ios::binary);
    out << "P6\n48 40\n255\n";
    for (int i = 0; i < 48 * 40 * 3; ++i) out.put(static_cast<char>(i * 7));
  }
  const Outcome infer = runCli("infer --run " + run.string() + " --image " + image.string());
  ASSERT_EQ(infer.exit_code, 0) << infer.output;
  EXPECT_NE(infer.output.find(" (p="), std::string::npos) << infer.output;
  EXPECT_NE(infer.output.find("then "), std::string::npos) << infer.output;
}

TEST(Cli, EpochsAndStepsExcludeEachOther) {
  const Outcome o = runCli("train --task imdb --preset tiny --epochs 2 --steps 5");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("--epochs excludes --steps"), std::string::npos) << o.output;
  EXPECT_EQ(lineCount(o.output), 1) << o.output;
}

TEST(Cli, StepsDecideTheLengthWhateverTheEpochs) {
  // The tiny imdb data has 13 batches an epoch; 30 steps run on into later epochs.
  const fs::path run = fs::temp_directory_path() / "ascope_cli_test_steps";
  fs::remove_all(run);
  const Outcome o = runCli("train --task imdb --preset tiny --steps 30 --out " + run.string());
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("summary: finished after 30 steps"), std::string::npos) << o.output;
}

TEST(Cli, LanguagePairIsCheckedAgainstTaskAndData) {
  Outcome o = runCli("train --task vit --source-lang de");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("--source-lang/--target-lang are for a task with a language pair"),
            std::string::npos)
      << o.output;
  o = runCli("train --task translate --preset tiny --source-lang de");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("the built-in translation data is English→Italian (en→it), got de→it"),
            std::string::npos)
      << o.output;
  o = runCli("train --task translate --preset tiny --target-lang ../x");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("target_language must be a language code such as en or it, got \"../x\""),
            std::string::npos)
      << o.output;
}

TEST(Cli, VitRunClassifiesAPpmImage) {
  const fs::path run = fs::temp_directory_path() / "ascope_cli_test_image_run";
  fs::remove_all(run);
  const Outcome train = runCli("train --task vit --preset tiny --steps 5 --out " + run.string());
  ASSERT_EQ(train.exit_code, 0) << train.output;
  // A 32x32 red square on grey, as a binary PPM (decodable in builds without OpenCV too).
  const fs::path image = fs::temp_directory_path() / "ascope_cli_test_square.ppm";
  {
    std::ofstream out(image, std::ios::binary);
    out << "P6\n32 32\n255\n";
    for (int y = 0; y < 32; ++y) {
      for (int x = 0; x < 32; ++x) {
        const bool inside = x >= 8 && x < 24 && y >= 8 && y < 24;
        out << static_cast<char>(inside ? 220 : 90) << static_cast<char>(inside ? 30 : 90)
            << static_cast<char>(inside ? 30 : 90);
      }
    }
  }
  const Outcome infer = runCli("infer --run " + run.string() + " --image " + image.string());
  ASSERT_EQ(infer.exit_code, 0) << infer.output;
  // "<class> (p=0.xxx)" with one of the built-in classes, then the runners-up.
  EXPECT_NE(infer.output.find(" (p=0."), std::string::npos) << infer.output;
  EXPECT_NE(infer.output.find("  then "), std::string::npos) << infer.output;
  const Outcome text = runCli("infer --run " + run.string() + " --text hello");
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_NE(text.output.find("--text is for a run of "), std::string::npos) << text.output;
}

TEST(Cli, BenchPrintsOneLineOfFigures) {
  const Outcome o = runCli("bench --task translate --preset tiny --steps 3");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_EQ(o.output.rfind("ms_per_step=", 0), 0u) << o.output;
  EXPECT_NE(o.output.find(" samples_per_s="), std::string::npos) << o.output;
}

/// A path under the temp folder of this process's own: ctest -j and other people's test runs may
/// run the same test at the same time.
fs::path ownTemp(const std::string& name) {
  return fs::temp_directory_path() / (name + "_" + std::to_string(getpid()));
}

/// Kills the child when a failed assertion leaves the test early.
class ChildGuard {
 public:
  explicit ChildGuard(pid_t pid) : pid_(pid) {}
  ~ChildGuard() {
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  ChildGuard(const ChildGuard&) = delete;
  ChildGuard& operator=(const ChildGuard&) = delete;

 private:
  pid_t pid_;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// `path` with the first `from` replaced by `to`.
void replaceInFile(const fs::path& path, const std::string& from, const std::string& to) {
  std::string text = readFile(path);
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << path << " has no " << from;
  text.replace(at, from.size(), to);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    names.push_back(fs::relative(entry.path(), dir).string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Cli, ResumeRefusesOutOfRangeNumbersFromConfigJsonAndTouchesNothing) {
  const fs::path run = ownTemp("ascope_cli_test_bounds");
  fs::remove_all(run);
  ASSERT_EQ(runCli("train --task vit --preset tiny --steps 3 --out " + run.string()).exit_code, 0);
  const std::vector<std::string> before = entries(run);
  // Each: what config.json gets, what the one line must say.
  const std::pair<std::pair<const char*, const char*>, const char*> cases[] = {
      {{"\"batch_size\": 32", "\"batch_size\": 9223372036854775807"},
       "batch_size must be at most 65536, got 9223372036854775807"},
      {{"\"threads\": 0", "\"threads\": 100000"}, "threads must be at most 1024, got 100000"},
  };
  for (const auto& [edit, expected] : cases) {
    const std::string config = readFile(run / "config.json");
    replaceInFile(run / "config.json", edit.first, edit.second);
    const Outcome o = runCli("train --resume " + run.string() + " --steps 6");
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_NE(o.output.find("attentionscope-cli: --resume: " + run.string() +
                            "/config.json: " + expected),
              std::string::npos)
        << o.output;
    EXPECT_EQ(lineCount(o.output), 1) << o.output;
    EXPECT_EQ(entries(run), before);
    std::ofstream(run / "config.json", std::ios::binary | std::ios::trunc) << config;
  }
  fs::remove_all(run);
}

TEST(Cli, FailedDataLoadLeavesTheOutFolderAsItWas) {
  const fs::path run = ownTemp("ascope_cli_test_bad_data");
  const fs::path data = ownTemp("ascope_cli_test_bad_data.csv");
  fs::remove_all(run);
  std::ofstream(data) << "neither,a,review,nor,a,label\n";
  const Outcome failed = runCli("train --task imdb --preset tiny --steps 5 --data " +
                                data.string() + " --out " + run.string());
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  EXPECT_NE(failed.output.find(data.string()), std::string::npos) << failed.output;
  EXPECT_FALSE(fs::exists(run)) << "a half-made run folder was left";
  const Outcome retry = runCli("train --task imdb --preset tiny --steps 5 --out " + run.string());
  EXPECT_EQ(retry.exit_code, 0) << retry.output;
  fs::remove_all(run);
  fs::remove(data);
}

TEST(Cli, ResumeOfARunKilledBeforeItsFirstCheckpointStartsItAgain) {
  const fs::path run = ownTemp("ascope_cli_test_no_checkpoint");
  fs::remove_all(run);
  ASSERT_EQ(runCli("train --task imdb --preset tiny --steps 4 --out " + run.string()).exit_code, 0);
  // What a kill during the first steps leaves: the run's files, no checkpoint yet.
  for (const char* name : {"last.pt", "best.pt"}) fs::remove(run / "checkpoints" / name);
  const Outcome again = runCli("train --out " + run.string() + " --task imdb --preset tiny");
  EXPECT_NE(again.exit_code, 0) << "--out still refuses a folder that holds a run";
  const Outcome resumed = runCli("train --resume " + run.string());
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("starts again from step 0"), std::string::npos) << resumed.output;
  EXPECT_TRUE(fs::exists(run / "checkpoints" / "last.pt"));
  fs::remove_all(run);
}

TEST(Cli, TwoTrainsIntoOneFolderAtOnceExactlyOneRuns) {
  const fs::path run = ownTemp("ascope_cli_test_two_writers");
  fs::remove_all(run);
  // Generating the laptop preset's images takes long enough that both are preparing at once.
  const std::string command = std::string(ascope::test_paths::cliProgram()) +
                              " train --task vit --preset laptop --steps 20 --out " + run.string() +
                              " 2>&1";
  FILE* first = popen(command.c_str(), "r");
  FILE* second = popen(command.c_str(), "r");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  Outcome outcomes[2];
  FILE* pipes[2] = {first, second};
  for (int i = 0; i < 2; ++i) {
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipes[i]) != nullptr) {
      outcomes[i].output += buffer.data();
    }
    const int status = pclose(pipes[i]);
    outcomes[i].exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  const int winner = outcomes[0].exit_code == 0 ? 0 : 1;
  const Outcome& won = outcomes[winner];
  const Outcome& lost = outcomes[1 - winner];
  EXPECT_EQ(won.exit_code, 0) << won.output;
  EXPECT_NE(won.output.find("summary: finished after 20 steps"), std::string::npos) << won.output;
  EXPECT_EQ(lost.exit_code, 1) << lost.output;
  // Refused by the lock ("in use by pid N", or "by another process (it is just starting)" when
  // the winner has taken the lock but not yet written its pid there), or by the winner's run.
  EXPECT_TRUE(lost.output.find("run folder " + run.string() + " is in use by ") !=
                  std::string::npos ||
              lost.output.find("already holds a run") != std::string::npos)
      << lost.output;
  // One run's rows only: a header and 20 train rows, plus the validation ones.
  const std::string csv = readFile(run / "metrics.csv");
  EXPECT_EQ(csv.find("20,1,train"), csv.rfind("20,1,train")) << csv;
  EXPECT_FALSE(fs::exists(run / ".lock"));
  fs::remove_all(run);
}

/// The CLI started with `args`, stdout and stderr into `log`, without waiting for it.
pid_t startCli(const std::string& args, const fs::path& log) {
  const std::string command = "exec " + std::string(ascope::test_paths::cliProgram()) + " " + args +
                              " > " + log.string() + " 2>&1";
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) {
    return -1;
  }
  return pid;
}

/// Waits up to `limit` for the train rows in `csv` to reach `rows`.
bool waitForRows(const fs::path& csv, int rows, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = readFile(csv);
    int train_rows = 0;
    for (std::size_t at = text.find(",train,"); at != std::string::npos;
         at = text.find(",train,", at + 1)) {
      ++train_rows;
    }
    if (train_rows >= rows) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

/// The exit code of `pid`, or -1 when it did not exit by itself within `limit` (then killed) or
/// died of a signal.
int waitForExit(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Cli, SigtermStopsAfterTheStepWithACheckpointThatResumes) {
  const fs::path run = ownTemp("ascope_cli_test_sigterm");
  const fs::path log = ownTemp("ascope_cli_test_sigterm.log");
  fs::remove_all(run);
  const pid_t pid = startCli("train --task vit --preset laptop --out " + run.string(), log);
  ASSERT_GT(pid, 0);
  const ChildGuard guard(pid);
  ASSERT_TRUE(waitForRows(run / "metrics.csv", 3, std::chrono::seconds(120))) << readFile(log);
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  const int code = waitForExit(pid, std::chrono::seconds(120));
  const std::string output = readFile(log);
  EXPECT_EQ(code, 3) << output;
  EXPECT_NE(output.find("SIGTERM: stopping after the current step"), std::string::npos) << output;
  EXPECT_NE(output.find("stopped by SIGTERM; continue with: attentionscope-cli train --resume " +
                        run.string()),
            std::string::npos)
      << output;
  ASSERT_TRUE(fs::exists(run / "checkpoints" / "last.pt")) << output;
  EXPECT_FALSE(fs::exists(run / ".lock"));

  const std::string marker = "stopped at step ";
  const std::size_t at = output.find(marker);
  ASSERT_NE(at, std::string::npos) << output;
  const long stopped = std::stol(output.substr(at + marker.size()));
  const std::string steps = std::to_string(stopped + 3);
  const Outcome resumed = runCli("train --resume " + run.string() + " --steps " + steps);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("continuing after step " + std::to_string(stopped)),
            std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("summary: finished after " + steps + " steps"), std::string::npos)
      << resumed.output;
  fs::remove_all(run);
  fs::remove(log);
}

TEST(Cli, SecondSignalExitsAtOnce) {
  const fs::path run = ownTemp("ascope_cli_test_two_signals");
  const fs::path log = ownTemp("ascope_cli_test_two_signals.log");
  fs::remove_all(run);
  const pid_t pid = startCli("train --task vit --preset laptop --out " + run.string(), log);
  ASSERT_GT(pid, 0);
  const ChildGuard guard(pid);
  ASSERT_TRUE(waitForRows(run / "metrics.csv", 3, std::chrono::seconds(120))) << readFile(log);
  // Two different signals: a second SIGTERM sent before the first is handled would merge with it.
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  ASSERT_EQ(kill(pid, SIGINT), 0);
  const int code = waitForExit(pid, std::chrono::seconds(10));
  const std::string output = readFile(log);
  EXPECT_EQ(code, 1) << output;
  EXPECT_NE(output.find("attentionscope-cli: second signal: exiting now"), std::string::npos)
      << output;
  fs::remove_all(run);
  fs::remove(log);
}

TEST(Cli, RunKilledOutrightResumesDespiteItsLockFile) {
  const fs::path run = ownTemp("ascope_cli_test_killed");
  const fs::path log = ownTemp("ascope_cli_test_killed.log");
  fs::remove_all(run);
  const pid_t pid =
      startCli("train --task imdb --preset tiny --steps 100000 --out " + run.string(), log);
  ASSERT_GT(pid, 0);
  const ChildGuard guard(pid);
  ASSERT_TRUE(waitForRows(run / "metrics.csv", 14, std::chrono::seconds(120))) << readFile(log);
  ASSERT_TRUE(fs::exists(run / ".lock"));
  // While it runs, a resume is refused with its pid ...
  const Outcome refused = runCli("train --resume " + run.string() + " --max-seconds 1");
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("run folder " + run.string() + " is in use by pid " +
                                std::to_string(pid) + " since "),
            std::string::npos)
      << refused.output;
  // ... and once it is killed (no handler runs, the lock file stays), a resume goes ahead.
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  EXPECT_EQ(waitForExit(pid, std::chrono::seconds(30)), -1);
  ASSERT_TRUE(fs::exists(run / ".lock"));
  ASSERT_TRUE(fs::exists(run / "checkpoints" / "last.pt"));
  const Outcome resumed = runCli("train --resume " + run.string() + " --max-seconds 1");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("continuing after step "), std::string::npos) << resumed.output;
  fs::remove_all(run);
  fs::remove(log);
}

TEST(Cli, InferFallsBackToLastWhenBestIsCorrupt) {
  const fs::path run = ownTemp("ascope_cli_test_corrupt_best");
  fs::remove_all(run);
  ASSERT_EQ(runCli("train --task imdb --preset tiny --steps 15 --out " + run.string()).exit_code,
            0);
  ASSERT_TRUE(fs::exists(run / "checkpoints" / "best.pt"));
  std::ofstream(run / "checkpoints" / "best.pt", std::ios::binary | std::ios::trunc) << "PK torn";
  const Outcome o = runCli("infer --run " + run.string() + " --text \"a wonderful film\"");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("attentionscope-cli: " + (run / "checkpoints" / "best.pt").string() +
                          " is not a complete zip archive"),
            std::string::npos)
      << o.output;
  EXPECT_NE(
      o.output.find("answering with " + (run / "checkpoints" / "last.pt").string() + " instead\n"),
      std::string::npos)
      << o.output;
  EXPECT_TRUE(o.output.find("positive (p=") != std::string::npos ||
              o.output.find("negative (p=") != std::string::npos)
      << o.output;
  fs::remove_all(run);
}

TEST(Cli, InferNamesTheRunnerUpNotTheAnswerAgain) {
  const fs::path run = ownTemp("ascope_cli_test_runner_up");
  fs::remove_all(run);
  ASSERT_EQ(runCli("train --task imdb --preset tiny --steps 15 --out " + run.string()).exit_code,
            0);
  for (const char* text : {"a wonderful film", "a dull boring mess"}) {
    const Outcome o = runCli("infer --run " + run.string() + " --text \"" + text + "\"");
    ASSERT_EQ(o.exit_code, 0) << o.output;
    const bool positive = o.output.rfind("positive (p=", 0) == 0;
    EXPECT_NE(o.output.find(positive ? "\n  then negative (p=" : "\n  then positive (p="),
              std::string::npos)
        << text << ": " << o.output;
  }
  fs::remove_all(run);
}

TEST(Cli, InferWritesTheAttentionJsonOrRefusesAnUnwritablePath) {
  const fs::path run = ownTemp("ascope_cli_test_attention_json");
  fs::remove_all(run);
  ASSERT_EQ(runCli("train --task imdb --preset tiny --steps 5 --out " + run.string()).exit_code, 0);
  const fs::path missing = ownTemp("ascope_cli_test_no_such_folder") / "asked.json";
  const Outcome refused = runCli("infer --run " + run.string() +
                                 " --text \"a wonderful film\" --attention " + missing.string());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_EQ(
      refused.output.rfind("attentionscope-cli: --attention: cannot write " + missing.string(), 0),
      0u)
      << refused.output;
  EXPECT_EQ(lineCount(refused.output), 1) << refused.output;

  const fs::path out = run / "asked.json";
  const Outcome written = runCli("infer --run " + run.string() +
                                 " --text \"a wonderful film\" --attention " + out.string());
  ASSERT_EQ(written.exit_code, 0) << written.output;
  EXPECT_TRUE(written.output.rfind("positive (p=", 0) == 0 ||
              written.output.rfind("negative (p=", 0) == 0)
      << written.output;
  const std::string json = readFile(out);
  EXPECT_EQ(json.rfind("{", 0), 0u) << json.substr(0, 200);
  EXPECT_NE(json.find("\"row_labels\":[\"a\",\"wonderful\",\"film\"]"), std::string::npos)
      << json.substr(0, 400);
  fs::remove_all(run);
}

TEST(Cli, FullDiskDuringACheckpointEndsWithAMessageNotAnAbort) {
  const fs::path mount_point = ownTemp("ascope_cli_test_full_disk");
  fs::create_directories(mount_point);
  if (mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=1400k") != 0) {
    fs::remove(mount_point);
    GTEST_SKIP() << "cannot mount a tmpfs here (needs root): " << std::strerror(errno);
  }
  const fs::path run = mount_point / "run";
  const Outcome o = runCli("train --task vit --preset tiny --steps 30 --out " + run.string());
  const std::vector<std::string> left = entries(run / "checkpoints");
  umount2(mount_point.c_str(), MNT_DETACH);
  fs::remove(mount_point);
  EXPECT_EQ(o.exit_code, 1) << o.output;
  EXPECT_NE(o.output.find("attentionscope-cli: disk full while writing " + run.string() +
                          "/checkpoints/"),
            std::string::npos)
      << o.output;
  for (const std::string& name : left) {
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
  }
}

}  // namespace
