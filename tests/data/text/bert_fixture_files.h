#pragma once
// The committed Hugging Face files of tests/fixtures/hf/ and the bert-base-uncased tokenizers
// built from them, loaded once per test process.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "engine/text/bert/bert_tokenizer.h"
#include "test_paths.h"

namespace ascope::testing {

inline std::string hfFixturePath(const std::string& file) {
  return std::string(test_paths::fixturesDir()) + "/hf/" + file;
}

inline std::string readHfFixture(const std::string& file) {
  std::ifstream in(hfFixturePath(file), std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// bert-base-uncased from its vocab.txt with the default (uncased) settings.
inline const BertTokenizer& bertBaseUncasedFromVocab() {
  static const BertTokenizer tokenizer = [] {
    auto loaded = BertTokenizer::fromVocabFile(hfFixturePath("bert-base-uncased.vocab.txt"));
    if (!loaded) std::cerr << loaded.error() << "\n";
    return std::move(loaded.value());
  }();
  return tokenizer;
}

/// bert-base-uncased from its tokenizer.json.
inline const BertTokenizer& bertBaseUncasedFromJson() {
  static const BertTokenizer tokenizer = [] {
    auto loaded =
        BertTokenizer::fromTokenizerJsonFile(hfFixturePath("bert-base-uncased.tokenizer.json"));
    if (!loaded) std::cerr << loaded.error() << "\n";
    return std::move(loaded.value());
  }();
  return tokenizer;
}

}  // namespace ascope::testing
