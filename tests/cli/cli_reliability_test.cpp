// The CLI rows of the fourth reliability audit, in-process: every output a command writes goes
// through the one writer (never a device, FIFO, link or the command's own input, checked before
// the work, exit 2), every run's settings through the one reader (named by file and setting),
// paths in a run's config.json are never opened on their word, `evaluate` scores every split a
// digits run has, and bad input is one line with exit code 2.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/tasks/digit_order/digit_order_descriptor.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "in_process_run.h"
#include "test_paths.h"
#include "tests/data/fifo_fixture.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::CliOutcome;
using testing::runInProcess;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A tiny run of `task` trained once per test program, in a folder of its own.
const fs::path& trained(const std::string& task) {
  static std::map<std::string, fs::path> runs;
  auto found = runs.find(task);
  if (found != runs.end()) return found->second;
  const fs::path dir =
      fs::temp_directory_path() /
      ("ascope_cli_reliability_" + task + "_" + std::to_string(static_cast<long long>(::getpid())));
  fs::remove_all(dir);
  const CliOutcome train = runInProcess(
      {"train", "--task", task, "--preset", "tiny", "--steps", "12", "--out", dir.string()});
  EXPECT_EQ(train.exit_code, 0) << train.err;
  return runs.emplace(task, dir).first->second;
}

/// A copy of a trained run with `edit` applied to its config.json.
fs::path editedCopy(const std::string& task, const std::string& name,
                    const std::function<void(nlohmann::json&)>& edit) {
  const fs::path copy =
      fs::temp_directory_path() / ("ascope_cli_reliability_copy_" + name + "_" +
                                   std::to_string(static_cast<long long>(::getpid())));
  fs::remove_all(copy);
  fs::copy(trained(task), copy, fs::copy_options::recursive);
  nlohmann::json config = nlohmann::json::parse(contents(copy / "config.json"));
  edit(config);
  std::ofstream(copy / "config.json", std::ios::trunc) << config.dump();
  return copy;
}

TEST(CliReliability, EvaluateRefusesEveryOutputThatIsNoFileOrIsItsOwnInput) {
  const fs::path run = trained(kSentimentTaskId);
  const fs::path data =
      run.parent_path() / ("ascope_cli_reliability_data_" +
                           std::to_string(static_cast<long long>(::getpid())) + ".csv");
  std::ofstream(data) << "text,label\na fine film,1\na dull film,0\ngreat,1\nawful,0\n";
  const std::string data_before = contents(data);
  const std::string best_before = contents(run / "checkpoints" / "best.pt");
  const fs::path link = run / "to_stdout.json";
  fs::create_symlink("/proc/self/fd/1", link);
  testing::Fifo fifo((run / "fifo.json").string());
  ASSERT_TRUE(fifo.created());
  struct Case {
    std::string out, message;
  };
  const Case cases[] = {
      {"/dev/full", "--out: /dev/full is a character device, not a file"},
      {"/dev/null", "--out: /dev/null is a character device, not a file"},
      {fifo.path(), "--out: " + fifo.path() + " is a FIFO, not a file"},
      {link.string(), "--out: " + link.string() + " is a symbolic link (to /proc/self/fd/1)"},
      {data.string(), "--out: " + data.string() + " is the data set this command reads"},
      {(run / "checkpoints" / "best.pt").string(),
       "--out: " + (run / "checkpoints" / "best.pt").string() + " is in the run's checkpoints"},
      {"", "--out: an empty file name"},
      {(run / "nowhere" / "e.json").string(),
       "--out: cannot write " + (run / "nowhere" / "e.json").string() + ": no such folder"},
  };
  for (const Case& c : cases) {
    const auto start = std::chrono::steady_clock::now();
    const CliOutcome o = runInProcess({"evaluate", "--run", run.string(), "--data", data.string(),
                                       "--split", "all", "--out", c.out});
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3)) << c.out;
    EXPECT_EQ(o.exit_code, 2) << c.out << "\n" << o.err;
    EXPECT_TRUE(contains(o.err, "attentionscope-cli: " + c.message)) << o.err;
    EXPECT_FALSE(contains(o.out, "evaluate:")) << "refused before any sample was scored";
    EXPECT_FALSE(contains(o.out, "wrote")) << o.out;
  }
  EXPECT_EQ(contents(data), data_before) << "the data set is intact";
  EXPECT_EQ(contents(run / "checkpoints" / "best.pt"), best_before) << "so are the weights";
  EXPECT_TRUE(fs::is_symlink(link));
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/full is still a device";
  fs::remove(link);
  fs::remove(data);
}

TEST(CliReliability, InferAndInspectRefuseAFifoOrALinkForTheirAttention) {
  const fs::path run = trained(kSentimentTaskId);
  testing::Fifo fifo((run / "attention_fifo.json").string());
  ASSERT_TRUE(fifo.created());
  const CliOutcome infer = runInProcess(
      {"infer", "--run", run.string(), "--text", "a fine film", "--attention", fifo.path()});
  EXPECT_EQ(infer.exit_code, 2) << infer.err;
  EXPECT_TRUE(contains(infer.err, "--attention: " + fifo.path() + " is a FIFO, not a file"))
      << infer.err;
  const CliOutcome into_run = runInProcess({"infer", "--run", run.string(), "--text", "fine",
                                            "--attention", (run / "config.json").string()});
  EXPECT_EQ(into_run.exit_code, 2) << into_run.err;
  EXPECT_TRUE(contains(into_run.err, "is a file of the run this command reads")) << into_run.err;

  const fs::path link = run / "inspect_link.json";
  fs::create_symlink("/dev/null", link);
  const CliOutcome inspect =
      runInProcess({"inspect", "--model", std::string(test_paths::fixturesDir()) + "/hf/tiny_bert",
                    "--text", "hi", "--attention", link.string()});
  EXPECT_EQ(inspect.exit_code, 2) << inspect.err;
  EXPECT_TRUE(contains(inspect.err, link.string() + " is a symbolic link (to /dev/null)"))
      << inspect.err;
  fs::remove(link);
}

TEST(CliReliability, EvaluateScoresEverySplitOfADigitsRun) {
  const fs::path run = trained(kDigitOrderTaskId);
  for (const char* split : {"validation", "train", "all"}) {
    const CliOutcome o = runInProcess({"evaluate", "--run", run.string(), "--data", "builtin",
                                       "--split", split, "--errors", "1"});
    ASSERT_EQ(o.exit_code, 0) << split << "\n" << o.err;
    EXPECT_TRUE(contains(o.out, std::string("split ") + split + ":")) << o.out;
    EXPECT_TRUE(contains(o.out, "accuracy")) << o.out;
    EXPECT_FALSE(contains(o.out, " 0 samples")) << o.out;
  }
  const CliOutcome test =
      runInProcess({"evaluate", "--run", run.string(), "--data", "builtin", "--split", "test"});
  EXPECT_EQ(test.exit_code, 2) << test.err;
  EXPECT_TRUE(contains(test.err, "the test split is empty")) << test.err;
}

TEST(CliReliability, BadInputIsOneLineWithExitCode2) {
  const CliOutcome zero = runInProcess({"train", "--task", kSentimentTaskId, "--preset", "tiny",
                                        "--steps", "1", "--data", "/dev/zero"});
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  EXPECT_TRUE(contains(zero.err, "/dev/zero is a character device, not a data file or folder"))
      << zero.err;
  EXPECT_FALSE(contains(zero.out, "new run")) << zero.out;

  const fs::path run = trained(kDigitOrderTaskId);
  const CliOutcome arabic =
      runInProcess({"infer", "--run", run.string(), "--text", "\u0661\u0662\u0663"});
  EXPECT_EQ(arabic.exit_code, 2) << arabic.err;
  EXPECT_TRUE(contains(arabic.err, "got '\u0661' (U+0661)")) << arabic.err;
  EXPECT_FALSE(contains(arabic.err, "'\xd9'")) << "no broken byte";
}

TEST(CliReliability, ARunsSettingsAreReadAsResumeReadsThem) {
  const fs::path run = editedCopy(kSentimentTaskId, "types",
                                  [](nlohmann::json& c) { c["text"]["dropout"] = "0.1"; });
  const std::string expected =
      (run / "config.json").string() + ": settings \"text.dropout\" must be a number, got \"0.1\"";
  const CliOutcome infer = runInProcess({"infer", "--run", run.string(), "--text", "fine"});
  EXPECT_EQ(infer.exit_code, 2);
  EXPECT_TRUE(contains(infer.err, expected)) << infer.err;
  const CliOutcome resume = runInProcess({"train", "--resume", run.string()});
  EXPECT_EQ(resume.exit_code, 2);
  EXPECT_TRUE(contains(resume.err, "--resume: " + expected)) << resume.err;
  const fs::path page = run.parent_path() / (run.filename().string() + ".html");
  const CliOutcome handout =
      runInProcess({"handout", "--run", run.string(), "--out", page.string()});
  EXPECT_EQ(handout.exit_code, 1) << "a page was written from settings every reader refuses";
  EXPECT_TRUE(contains(handout.err, expected)) << handout.err;
  EXPECT_FALSE(fs::exists(page));

  const fs::path fractional = editedCopy(kSentimentTaskId, "fraction",
                                         [](nlohmann::json& c) { c["text"]["layers"] = 1.5; });
  const CliOutcome half = runInProcess({"infer", "--run", fractional.string(), "--text", "fine"});
  EXPECT_EQ(half.exit_code, 2) << "infer takes what --resume refuses no more";
  EXPECT_TRUE(contains(half.err, "\"text.layers\" must be a whole number, got 1.5")) << half.err;
  fs::remove_all(run);
  fs::remove_all(fractional);
}

TEST(CliReliability, AblateNeverOpensTheDataARunFolderNames) {
  // If ablate read its data it would block on this FIFO (freed after 3 s by the fixture).
  const fs::path dir =
      fs::temp_directory_path() /
      ("ascope_cli_reliability_secret_" + std::to_string(static_cast<long long>(::getpid())));
  fs::create_directories(dir);
  testing::Fifo secret((dir / "secret").string());
  ASSERT_TRUE(secret.created());
  const fs::path run =
      editedCopy(kSentimentTaskId, "secret", [&](nlohmann::json& c) { c["data"] = secret.path(); });
  const auto start = std::chrono::steady_clock::now();
  const CliOutcome o = runInProcess({"ablate", "--run", run.string(), "--samples", "4"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_TRUE(contains(
      o.err, (run / "config.json").string() + " names its data (\"" + secret.path() + "\")"))
      << o.err;
  EXPECT_TRUE(contains(o.err, "give it again with --data")) << o.err;
  EXPECT_FALSE(fs::exists(run / "ablation.csv"));
  fs::remove_all(run);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ascope
