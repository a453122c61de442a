#include "engine/text/bert/bert_tokenizer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "engine/core/json_file.h"
#include "engine/text/bert/bert_tokenizer_config.h"
#include "engine/text/bert/bert_tokenizer_json.h"
#include "engine/text/bert/bert_vocab_txt.h"

namespace ascope {
namespace {

bool fileExists(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::exists(path, error);
}

/// Hugging Face's clean_up_tokenization: each replacement over the whole text, in this order.
std::string cleanUpTokenization(std::string text) {
  static const std::pair<std::string_view, std::string_view> replacements[] = {
      {" .", "."},     {" ?", "?"},   {" !", "!"},   {" ,", ","},     {" ' ", "'"},
      {" n't", "n't"}, {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
  for (const auto& [from, to] : replacements) {
    std::string out;
    out.reserve(text.size());
    std::size_t begin = 0;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, begin)) {
      out.append(text, begin, at - begin);
      out.append(to);
      begin = at + from.size();
    }
    out.append(text, begin, std::string::npos);
    text = std::move(out);
  }
  return text;
}

}  // namespace

Expected<BertTokenizer> BertTokenizer::create(std::vector<std::string> vocab,
                                              BertTokenizerSettings settings,
                                              const std::string& name) {
  WordPieceSettings word_piece{settings.unk_token, settings.continuing_subword_prefix,
                               settings.max_input_chars_per_word};
  auto pieces = WordPieceTokenizer::create(std::move(vocab), std::move(word_piece), name);
  if (!pieces) return Error{pieces.error()};

  BertTokenizer tokenizer;
  tokenizer.word_piece_ = std::move(*pieces);
  const auto require = [&](const std::string& token, const char* role, std::int64_t& id) -> Status {
    id = tokenizer.word_piece_.idOf(token);
    if (id < 0) {
      return Error{name + ": the " + role + " token \"" + token + "\" is not in the vocabulary"};
    }
    return {};
  };
  if (Status s = require(settings.cls_token, "classification", tokenizer.cls_id_); !s) {
    return Error{s.error()};
  }
  if (Status s = require(settings.sep_token, "separator", tokenizer.sep_id_); !s) {
    return Error{s.error()};
  }
  if (Status s = require(settings.pad_token, "padding", tokenizer.pad_id_); !s) {
    return Error{s.error()};
  }
  tokenizer.mask_id_ = tokenizer.word_piece_.idOf(settings.mask_token);

  std::vector<std::string> whole = settings.added_tokens;
  for (const std::string* special :
       {&settings.unk_token, &settings.sep_token, &settings.pad_token, &settings.cls_token}) {
    whole.push_back(*special);
  }
  if (tokenizer.mask_id_ >= 0) whole.push_back(settings.mask_token);
  std::sort(whole.begin(), whole.end());
  whole.erase(std::unique(whole.begin(), whole.end()), whole.end());
  for (const std::string& token : whole) {
    std::int64_t id = 0;
    if (Status s = require(token, "added", id); !s) return Error{s.error()};
    if (token.empty()) continue;
    tokenizer.added_.push_back({token, id});
    tokenizer.added_first_bytes_[static_cast<unsigned char>(token[0])] = true;
  }
  std::stable_sort(
      tokenizer.added_.begin(), tokenizer.added_.end(),
      [](const AddedToken& a, const AddedToken& b) { return a.text.size() > b.text.size(); });

  tokenizer.basic_ = BertBasicTokenizer(settings.normalization, settings.never_split);
  tokenizer.settings_ = std::move(settings);
  return tokenizer;
}

Expected<BertTokenizer> BertTokenizer::fromVocabText(std::string_view text, const std::string& name,
                                                     BertTokenizerSettings settings) {
  auto vocab = parseVocabTxt(text, name);
  if (!vocab) return Error{vocab.error()};
  return create(std::move(*vocab), std::move(settings), name);
}

Expected<BertTokenizer> BertTokenizer::fromVocabFile(const std::string& path,
                                                     BertTokenizerSettings settings) {
  auto vocab = readVocabTxt(path);
  if (!vocab) return Error{vocab.error()};
  return create(std::move(*vocab), std::move(settings), path);
}

Expected<BertTokenizer> BertTokenizer::fromTokenizerJsonText(std::string_view text,
                                                             const std::string& name) {
  auto json = parseJson(text, name);
  if (!json) return Error{json.error()};
  auto definition = parseBertTokenizerJson(*json, name);
  if (!definition) return Error{definition.error()};
  return create(std::move(definition->vocab), std::move(definition->settings), name);
}

Expected<BertTokenizer> BertTokenizer::fromTokenizerJsonFile(const std::string& path) {
  auto json = readJsonFile(path);
  if (!json) return Error{json.error()};
  auto definition = parseBertTokenizerJson(*json, path);
  if (!definition) return Error{definition.error()};
  return create(std::move(definition->vocab), std::move(definition->settings), path);
}

Expected<BertTokenizer> BertTokenizer::fromFolder(const std::string& folder) {
  const std::filesystem::path root(folder);
  const std::string tokenizer_json = (root / "tokenizer.json").string();
  const std::string vocab_txt = (root / "vocab.txt").string();
  const std::string config_json = (root / "tokenizer_config.json").string();

  BertTokenizerDefinition definition;
  if (fileExists(tokenizer_json)) {
    auto json = readJsonFile(tokenizer_json);
    if (!json) return Error{json.error()};
    auto parsed = parseBertTokenizerJson(*json, tokenizer_json);
    if (!parsed) return Error{parsed.error()};
    definition = std::move(*parsed);
  } else if (fileExists(vocab_txt)) {
    auto vocab = readVocabTxt(vocab_txt);
    if (!vocab) return Error{vocab.error()};
    definition.vocab = std::move(*vocab);
  } else {
    return Error{folder + ": no tokenizer.json or vocab.txt in the folder"};
  }
  if (fileExists(config_json)) {
    auto config = readJsonFile(config_json);
    if (!config) return Error{config.error()};
    if (Status s = applyBertTokenizerConfig(*config, config_json, definition.settings); !s) {
      return Error{s.error()};
    }
  }
  return create(std::move(definition.vocab), std::move(definition.settings), folder);
}

void BertTokenizer::appendPlainIds(std::string_view text, BertBasicTokenizer::Words& words,
                                   std::vector<std::int64_t>& ids) const {
  words.clear();
  basic_.appendWords(text, words);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (basic_.isNeverSplit(word)) {
      const std::int64_t id = word_piece_.idOf(word);
      ids.push_back(id < 0 ? word_piece_.unkId() : id);
    } else {
      word_piece_.appendIds(word, ids);
    }
  }
}

void BertTokenizer::appendIds(std::string_view text, BertBasicTokenizer::Words& words,
                              std::vector<std::int64_t>& ids) const {
  std::size_t segment = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const AddedToken* match = nullptr;
    if (added_first_bytes_[static_cast<unsigned char>(text[i])]) {
      for (const AddedToken& token : added_) {
        if (text.compare(i, token.text.size(), token.text) == 0) {
          match = &token;
          break;
        }
      }
    }
    if (match == nullptr) {
      ++i;
      continue;
    }
    appendPlainIds(text.substr(segment, i - segment), words, ids);
    ids.push_back(match->id);
    i += match->text.size();
    segment = i;
  }
  appendPlainIds(text.substr(segment), words, ids);
}

std::vector<std::int64_t> BertTokenizer::encodeIds(std::string_view text) const {
  BertBasicTokenizer::Words words;
  std::vector<std::int64_t> ids;
  appendIds(text, words, ids);
  return ids;
}

std::vector<std::string> BertTokenizer::tokenize(std::string_view text) const {
  std::vector<std::string> tokens;
  for (const std::int64_t id : encodeIds(text)) tokens.push_back(tokenOf(id));
  return tokens;
}

BertEncoding BertTokenizer::encode(std::string_view text, const BertEncodeOptions& options) const {
  return assemble(encodeIds(text), nullptr, options);
}

BertEncoding BertTokenizer::encodePair(std::string_view first, std::string_view second,
                                       const BertEncodeOptions& options) const {
  BertBasicTokenizer::Words words;
  std::vector<std::int64_t> first_ids;
  std::vector<std::int64_t> second_ids;
  appendIds(first, words, first_ids);
  appendIds(second, words, second_ids);
  return assemble(std::move(first_ids), &second_ids, options);
}

BertEncoding BertTokenizer::assemble(std::vector<std::int64_t> first,
                                     const std::vector<std::int64_t>* second,
                                     const BertEncodeOptions& options) const {
  std::vector<std::int64_t> second_ids = second ? *second : std::vector<std::int64_t>{};
  const std::size_t special_count = options.add_special_tokens ? (second ? 3 : 2) : 0;
  const std::size_t max_length =
      options.max_length > 0 ? options.max_length : settings_.model_max_length.value_or(0);

  const std::size_t total = first.size() + second_ids.size() + special_count;
  if (options.truncate && max_length > 0 && total > max_length) {
    std::size_t excess = total - max_length;
    if (second == nullptr) {
      first.resize(first.size() - std::min(excess, first.size()));
    } else {
      // One token at a time from the longer side, as Hugging Face's longest_first does.
      for (; excess > 0 && !(first.empty() && second_ids.empty()); --excess) {
        if (first.size() > second_ids.size()) {
          first.pop_back();
        } else {
          second_ids.pop_back();
        }
      }
    }
  }

  BertEncoding encoding;
  const auto push = [&](std::int64_t id, std::int64_t type) {
    encoding.ids.push_back(id);
    encoding.token_type_ids.push_back(type);
  };
  if (options.add_special_tokens) push(cls_id_, 0);
  for (const std::int64_t id : first) push(id, 0);
  if (options.add_special_tokens) push(sep_id_, 0);
  if (second != nullptr) {
    const std::int64_t type = options.add_special_tokens ? 1 : 0;
    for (const std::int64_t id : second_ids) push(id, type);
    if (options.add_special_tokens) push(sep_id_, type);
  }
  encoding.attention_mask.assign(encoding.ids.size(), 1);
  if (options.pad_to_max_length && max_length > encoding.ids.size()) {
    const std::size_t padding = max_length - encoding.ids.size();
    encoding.ids.insert(encoding.ids.end(), padding, pad_id_);
    encoding.token_type_ids.insert(encoding.token_type_ids.end(), padding, 0);
    encoding.attention_mask.insert(encoding.attention_mask.end(), padding, 0);
  }
  encoding.tokens.reserve(encoding.ids.size());
  for (const std::int64_t id : encoding.ids) encoding.tokens.push_back(tokenOf(id));
  return encoding;
}

bool BertTokenizer::isSpecialId(std::int64_t id) const {
  if (id == cls_id_ || id == sep_id_ || id == pad_id_ || id == unkId() || id == mask_id_) {
    return true;
  }
  return std::any_of(added_.begin(), added_.end(),
                     [id](const AddedToken& token) { return token.id == id; });
}

std::string BertTokenizer::decode(const std::vector<std::int64_t>& ids,
                                  bool skip_special_tokens) const {
  const std::string& prefix = settings_.continuing_subword_prefix;
  std::string text;
  for (const std::int64_t id : ids) {
    if (skip_special_tokens && isSpecialId(id)) continue;
    const std::string& token = tokenOf(id);
    // " ".join(tokens).replace(" ##", ""): a continuation glues to what comes before it.
    const bool glued = !text.empty() && !prefix.empty() && token.rfind(prefix, 0) == 0;
    if (glued) {
      text.append(token, prefix.size(), std::string::npos);
    } else {
      if (!text.empty()) text.push_back(' ');
      text += token;
    }
  }
  return cleanUpTokenization(std::move(text));
}

}  // namespace ascope
