#include <gtest/gtest.h>

#include <algorithm>

#include "engine/datasets/json_lines_pair_reader.h"
#include "engine/datasets/moses_pair_reader.h"
#include "engine/datasets/translation_dataset_loader.h"
#include "engine/datasets/tsv_pair_reader.h"
#include "tests/data/fixture_folder.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::contains;
using testing::FixtureFolder;

std::vector<std::string> sourcesOf(const std::vector<TranslationPair>& pairs) {
  std::vector<std::string> sources;
  for (const auto& pair : pairs) sources.push_back(pair.source);
  return sources;
}

/// Books.en-it.en / .it with 20 aligned lines "english i" / "italiano i".
void writeMoses(const FixtureFolder& folder, const std::string& corpus = "Books") {
  std::string en;
  std::string it;
  for (int i = 0; i < 20; ++i) {
    en += "english " + std::to_string(i) + "\n";
    it += "italiano " + std::to_string(i) + "\r\n";
  }
  folder.write(corpus + ".en-it.en", en);
  folder.write(corpus + ".en-it.it", it);
}

/// Every pair still aligned, and the two splits together hold all 20.
void expectAlignedSplit(const TranslationDataset& dataset) {
  ASSERT_EQ(dataset.train.size(), 18u);
  ASSERT_EQ(dataset.validation.size(), 2u);
  std::vector<std::string> sources;
  for (const auto* split : {&dataset.train, &dataset.validation}) {
    for (const TranslationPair& pair : *split) {
      EXPECT_EQ(pair.source.substr(8), pair.target.substr(9))
          << pair.source << " / " << pair.target;
      sources.push_back(pair.source);
    }
  }
  std::sort(sources.begin(), sources.end());
  EXPECT_EQ(std::unique(sources.begin(), sources.end()), sources.end());
}

TEST(MosesPairReader, LoadsThePairFromEitherFileTheFolderOrBoth) {
  FixtureFolder folder;
  writeMoses(folder);
  const std::string en = folder.path("Books.en-it.en");
  const std::string it = folder.path("Books.en-it.it");
  std::vector<Expected<Loaded<TranslationDataset>>> loads;
  loads.push_back(loadTranslationDataset(en));
  loads.push_back(loadTranslationDataset(it));
  loads.push_back(loadTranslationDataset(folder.path()));
  loads.push_back(loadTranslationDataset(en, it));
  for (const auto& loaded : loads) {
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(loaded->dataset.source_language, "en");
    expectAlignedSplit(loaded->dataset);
    EXPECT_EQ(sourcesOf(loaded->dataset.validation), sourcesOf(loads.front()->dataset.validation))
        << "same seed";
  }
  EXPECT_EQ(loads[0]->dataset.train[0].source.rfind("english", 0), 0u);

  TranslationLoadOptions reversed;
  reversed.source_language = "it";
  reversed.target_language = "en";
  auto it_en = loadTranslationDataset(en, reversed);
  ASSERT_TRUE(it_en.ok()) << it_en.error();
  EXPECT_EQ(it_en->dataset.train[0].source.rfind("italiano", 0), 0u);

  TranslationLoadOptions other_seed;
  other_seed.seed = 7;
  auto reshuffled = loadTranslationDataset(en, other_seed);
  ASSERT_TRUE(reshuffled.ok());
  EXPECT_NE(sourcesOf(reshuffled->dataset.train), sourcesOf(loads.front()->dataset.train));
}

TEST(MosesPairReader, DifferentLineCountsNameBothFilesAndCounts) {
  FixtureFolder folder;
  writeMoses(folder);
  folder.write("Books.en-it.it", "uno\ndue\n");
  auto loaded = loadTranslationDataset(folder.path("Books.en-it.en"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(contains(loaded.error(), "Books.en-it.en has 20 lines but")) << loaded.error();
  EXPECT_TRUE(contains(loaded.error(), "Books.en-it.it has 2")) << loaded.error();
}

TEST(MosesPairReader, SkipsPairsWithAnEmptySideAndStopsOnEmptyFiles) {
  auto loaded = MosesPairReader::parse("a\n\nc\n", "x.en", "uno\ndue\n \n", "x.it");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 1u);
  EXPECT_EQ(loaded->dataset[0].target, "uno");
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0],
            "x.en + x.it: 2 line pairs skipped for an empty side (line 2, line 3)");

  auto empty = MosesPairReader::parse("", "x.en", "", "x.it");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error(), "x.en: file is empty");
}

TEST(MosesPairReader, AFolderWithTwoPairsAsksWhichOne) {
  FixtureFolder folder;
  writeMoses(folder, "Books");
  writeMoses(folder, "Europarl");
  auto loaded = loadTranslationDataset(folder.path());
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(contains(loaded.error(), "2 moses pairs (Books.en-it.en, Europarl.en-it.en)"))
      << loaded.error();
}

TEST(TsvPairReader, ReadsTwoColumnsAndSkipsLinesWithoutATab) {
  const std::string tsv =
      "Hello.\tCiao.\tCC-BY 2.0 (France) Attribution: tatoeba.org\r\n"
      "no tab here\r\n"
      "\r\n"
      "Thanks!\t Grazie! \r\n"
      "\tonly target\n";
  auto loaded = TsvPairReader::parse(tsv, "ita.txt");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 2u);
  EXPECT_EQ(loaded->dataset[0].source, "Hello.");
  EXPECT_EQ(loaded->dataset[0].target, "Ciao.");
  EXPECT_EQ(loaded->dataset[1].target, "Grazie!");
  ASSERT_EQ(loaded->warnings.size(), 2u);
  EXPECT_EQ(loaded->warnings[0],
            "ita.txt: 1 lines skipped for having no TAB between source and target (line 2)");
  EXPECT_EQ(loaded->warnings[1], "ita.txt: 1 lines skipped for an empty source or target (line 5)");

  auto none = TsvPairReader::parse("a\nb\n", "none.tsv");
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(contains(none.error(), "none.tsv: no line with a source and a target"))
      << none.error();
}

TEST(JsonLinesPairReader, ReadsTheHuggingFaceExport) {
  const std::string jsonl =
      "{\"id\": \"0\", \"translation\": {\"en\": \"Source: Project Gutenberg\", \"it\": \"Fonte: "
      "www.liberliber.it\"}}\n"
      "not json at all\n"
      "{\"translation\": {\"en\": \"only english\"}}\n"
      "\n"
      "{\"en\": \"top level\", \"it\": \"livello alto\"}\n"
      "[1, 2, 3]\n"
      "{\"translation\": {\"en\": \"caf\xE9\", \"it\": \"bar\"}}\n";
  auto loaded = JsonLinesPairReader::parse(jsonl, "train.jsonl", "en", "it");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 3u);
  EXPECT_EQ(loaded->dataset[0].source, "Source: Project Gutenberg");
  EXPECT_EQ(loaded->dataset[0].target, "Fonte: www.liberliber.it");
  EXPECT_EQ(loaded->dataset[1].target, "livello alto");
  EXPECT_EQ(loaded->dataset[2].source, "caf\xEF\xBF\xBD");
  ASSERT_EQ(loaded->warnings.size(), 3u);
  EXPECT_EQ(loaded->warnings[0], "train.jsonl: 1 lines skipped for not being valid JSON (line 2)");
  EXPECT_EQ(loaded->warnings[1],
            "train.jsonl: 2 lines skipped for lacking translation.en or .it text (line 3, line 6)");
  EXPECT_EQ(loaded->warnings[2],
            "train.jsonl: 1 invalid UTF-8 sequences replaced by U+FFFD (line 7)");

  auto reversed = JsonLinesPairReader::parse(jsonl, "train.jsonl", "it", "en");
  ASSERT_TRUE(reversed.ok());
  EXPECT_EQ(reversed->dataset[0].source, "Fonte: www.liberliber.it");

  auto other_languages = JsonLinesPairReader::parse(jsonl, "train.jsonl", "de", "fr");
  ASSERT_FALSE(other_languages.ok());
  EXPECT_TRUE(contains(other_languages.error(), "no line holds a de/fr translation pair"))
      << other_languages.error();
}

TEST(LoadTranslationDataset, DetectsTsvAndJsonLinesByNameOrContent) {
  FixtureFolder folder;
  std::string tsv;
  std::string jsonl;
  for (int i = 0; i < 10; ++i) {
    tsv += "english " + std::to_string(i) + "\titaliano " + std::to_string(i) + "\n";
    jsonl += "{\"translation\": {\"en\": \"english " + std::to_string(i) +
             "\", \"it\": \"italiano " + std::to_string(i) + "\"}}\n";
  }
  for (const std::string name : {"pairs.tsv", "pairs.jsonl", "pairs_tsv.txt", "pairs_jsonl.txt"}) {
    FixtureFolder one;
    const std::string path = one.write(name, name.find("tsv") != std::string::npos ? tsv : jsonl);
    for (const std::string& target : {path, one.path()}) {
      auto loaded = loadTranslationDataset(target);
      if (target == one.path() && name.find(".txt") != std::string::npos) {
        EXPECT_FALSE(loaded.ok()) << "a folder is searched for .tsv/.jsonl names only";
        continue;
      }
      ASSERT_TRUE(loaded.ok()) << name << ": " << loaded.error();
      EXPECT_EQ(loaded->dataset.train.size(), 9u) << name;
      EXPECT_EQ(loaded->dataset.validation.size(), 1u) << name;
    }
  }

  const std::string prose = folder.write("prose.txt", "just some text\nwithout tabs\n");
  auto unknown = loadTranslationDataset(prose);
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(contains(unknown.error(), "prose.txt: cannot tell the format")) << unknown.error();

  TranslationLoadOptions same;
  same.target_language = "en";
  EXPECT_FALSE(loadTranslationDataset(prose, same).ok());
  EXPECT_FALSE(loadTranslationDataset(folder.path("missing.tsv")).ok());
  const std::string empty = folder.write("empty.jsonl", "");
  auto empty_load = loadTranslationDataset(empty);
  ASSERT_FALSE(empty_load.ok());
  EXPECT_TRUE(contains(empty_load.error(), "empty.jsonl: file is empty")) << empty_load.error();
}

}  // namespace
}  // namespace ascope
