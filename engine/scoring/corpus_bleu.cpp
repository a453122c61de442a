#include "engine/scoring/corpus_bleu.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <string_view>

#include "engine/scoring/tokenizer_13a.h"

namespace ascope {
namespace {

using Ngram = std::vector<std::u32string>;
using NgramCounts = std::map<Ngram, int>;

/// The words of a preprocessed sentence and all its 1..4-grams.
NgramCounts ngramsOf(const std::vector<std::u32string>& words) {
  NgramCounts counts;
  for (std::size_t n = 1; n <= BleuScore::kMaxOrder; ++n) {
    for (std::size_t i = 0; i + n <= words.size(); ++i) {
      ++counts[Ngram(words.begin() + static_cast<std::ptrdiff_t>(i),
                     words.begin() + static_cast<std::ptrdiff_t>(i + n))];
    }
  }
  return counts;
}

std::vector<std::u32string> preprocess(const std::string& sentence, const BleuOptions& options) {
  if (options.tokenize_13a) return splitOnWhitespace(codePoints(tokenize13a(sentence)));
  std::u32string s = codePoints(sentence);
  return splitOnWhitespace(s);  // rstrip() and split() together
}

/// sacrebleu's my_log: log(0) is a very negative number, not an error.
double myLog(double x) {
  return x == 0 ? -9999999999.0 : std::log(x);
}

}  // namespace

BleuScore bleuFromStatistics(std::array<double, BleuScore::kMaxOrder> counts,
                             std::array<double, BleuScore::kMaxOrder> totals,
                             long long hypothesis_length, long long reference_length,
                             const BleuOptions& options) {
  using S = BleuOptions::Smoothing;
  double smooth_value = options.smooth_value;
  if (smooth_value < 0) smooth_value = options.smoothing == S::kAddK ? 1.0 : 0.1;
  BleuScore out;
  out.counts = counts;
  out.totals = totals;
  out.hypothesis_length = hypothesis_length;
  out.reference_length = reference_length;
  if (hypothesis_length < reference_length) {
    out.brevity_penalty =
        hypothesis_length > 0
            ? std::exp(1.0 - static_cast<double>(reference_length) / hypothesis_length)
            : 0.0;
  } else {
    out.brevity_penalty = 1.0;
  }
  bool any_match = false;
  for (double c : counts) any_match = any_match || c != 0;
  if (!any_match) return out;  // sacreBLEU's early stop (its issue #141)

  double smooth_mteval = 1.0;
  int effective_order = BleuScore::kMaxOrder;
  for (int n = 1; n <= BleuScore::kMaxOrder; ++n) {
    const int i = n - 1;
    if (options.smoothing == S::kAddK && n > 1) {
      counts[i] += smooth_value;
      totals[i] += smooth_value;
    }
    if (totals[i] == 0) break;
    if (options.effective_order) effective_order = n;
    if (counts[i] == 0) {
      if (options.smoothing == S::kExp) {
        smooth_mteval *= 2;
        out.precisions[i] = 100.0 / (smooth_mteval * totals[i]);
      } else if (options.smoothing == S::kFloor) {
        out.precisions[i] = 100.0 * smooth_value / totals[i];
      }
    } else {
      out.precisions[i] = 100.0 * counts[i] / totals[i];
    }
  }
  double log_sum = 0;
  for (int i = 0; i < effective_order; ++i) log_sum += myLog(out.precisions[i]);
  out.score = out.brevity_penalty * std::exp(log_sum / effective_order);
  return out;
}

BleuScore corpusBleu(const std::vector<std::string>& hypotheses,
                     const std::vector<std::vector<std::string>>& references,
                     const BleuOptions& options) {
  std::array<double, BleuScore::kMaxOrder> counts{}, totals{};
  long long hypothesis_length = 0, reference_length = 0;
  for (std::size_t s = 0; s < hypotheses.size(); ++s) {
    // The reference n-grams: for each, the most any one reference holds (clipping).
    NgramCounts reference_ngrams;
    std::vector<long long> reference_lengths;
    for (const std::vector<std::string>& stream : references) {
      if (s >= stream.size()) continue;
      const std::vector<std::u32string> words = preprocess(stream[s], options);
      reference_lengths.push_back(static_cast<long long>(words.size()));
      for (const auto& [gram, count] : ngramsOf(words)) {
        int& kept = reference_ngrams[gram];
        kept = std::max(kept, count);
      }
    }
    const std::vector<std::u32string> words = preprocess(hypotheses[s], options);
    const auto length = static_cast<long long>(words.size());
    // The closest reference length, the shorter one on a tie.
    long long closest = -1, closest_difference = -1;
    for (long long r : reference_lengths) {
      const long long difference = std::llabs(length - r);
      if (closest_difference == -1 || difference < closest_difference) {
        closest_difference = difference;
        closest = r;
      } else if (difference == closest_difference && r < closest) {
        closest = r;
      }
    }
    hypothesis_length += length;
    reference_length += closest < 0 ? 0 : closest;
    for (const auto& [gram, count] : ngramsOf(words)) {
      const std::size_t order = gram.size() - 1;
      totals[order] += count;
      const auto it = reference_ngrams.find(gram);
      if (it != reference_ngrams.end()) counts[order] += std::min(count, it->second);
    }
  }
  return bleuFromStatistics(counts, totals, hypothesis_length, reference_length, options);
}

}  // namespace ascope
