#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

Outcome runCli(const std::string& args) {
  const std::string command = std::string(ATTENTIONSCOPE_CLI) + " " + args + " 2>&1";
  Outcome out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) out.output += buffer.data();
  const int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

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
        "--batch-size 8", "--lr 0.01", "--source-lang de", "--target-lang de"}) {
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
  for (const char* command : {"train", "infer", "bench", "download"}) {
    const Outcome o = runCli(std::string(command) + " --help");
    EXPECT_EQ(o.exit_code, 0) << command;
    EXPECT_NE(o.output.find("usage: attentionscope-cli " + std::string(command)), std::string::npos)
        << o.output;
  }
  EXPECT_EQ(runCli("--help").exit_code, 0);
  EXPECT_EQ(runCli("dance").exit_code, 2);
}

TEST(Cli, TrainThenInferOnTheRunFolder) {
  const fs::path run = fs::temp_directory_path() / "ascope_cli_test_run";
  fs::remove_all(run);
  const Outcome train = runCli("train --task imdb --preset tiny --steps 40 --out " + run.string());
  ASSERT_EQ(train.exit_code, 0) << train.output;
  EXPECT_NE(train.output.find("summary: finished after 40 steps"), std::string::npos)
      << train.output;
  std::ifstream csv(run / "metrics.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("step,epoch,split,loss,accuracy,lr,samples_per_s", 0), 0u);
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

}  // namespace
