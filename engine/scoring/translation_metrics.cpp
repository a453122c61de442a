#include "engine/scoring/translation_metrics.h"

#include <cmath>
#include <map>
#include <sstream>

namespace ascope {
namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

using NgramCounts = std::map<std::vector<std::string>, int>;

NgramCounts countNgrams(const std::vector<std::string>& tokens, std::size_t n) {
  NgramCounts counts;
  for (std::size_t i = 0; i + n <= tokens.size(); ++i) {
    ++counts[std::vector<std::string>(tokens.begin() + i, tokens.begin() + i + n)];
  }
  return counts;
}

}  // namespace

TranslationScores scoreTranslations(const std::vector<std::string>& hypotheses,
                                    const std::vector<std::string>& references) {
  TranslationScores scores;
  const std::size_t count = std::min(hypotheses.size(), references.size());
  if (count == 0) return scores;
  constexpr std::size_t kMaxOrder = 4;
  double matches[kMaxOrder] = {}, totals[kMaxOrder] = {};
  double hyp_length = 0, ref_length = 0;
  double char_edits = 0, ref_chars = 0, word_edits = 0, ref_words = 0, exact = 0;
  for (std::size_t s = 0; s < count; ++s) {
    const auto hyp = words(hypotheses[s]);
    const auto ref = words(references[s]);
    hyp_length += hyp.size();
    ref_length += ref.size();
    for (std::size_t n = 1; n <= kMaxOrder; ++n) {
      const NgramCounts ref_counts = countNgrams(ref, n);
      for (const auto& [gram, c] : countNgrams(hyp, n)) {
        const auto it = ref_counts.find(gram);
        if (it != ref_counts.end()) matches[n - 1] += std::min(c, it->second);  // clipped counts
        totals[n - 1] += c;
      }
    }
    char_edits += editDistance(hypotheses[s], references[s]);
    ref_chars += references[s].size();
    word_edits += editDistance(hyp, ref);
    ref_words += ref.size();
    exact += hyp == ref ? 1 : 0;
  }
  double log_precision = 0;
  bool any_zero = false;
  for (std::size_t n = 0; n < kMaxOrder; ++n) {
    if (matches[n] == 0 || totals[n] == 0) {
      any_zero = true;
      break;
    }
    log_precision += std::log(matches[n] / totals[n]) / kMaxOrder;
  }
  const double brevity =
      hyp_length >= ref_length || hyp_length == 0 ? 1.0 : std::exp(1.0 - ref_length / hyp_length);
  scores.bleu = any_zero ? 0.0 : 100.0 * brevity * std::exp(log_precision);
  scores.cer = ref_chars > 0 ? char_edits / ref_chars : 0.0;
  scores.wer = ref_words > 0 ? word_edits / ref_words : 0.0;
  scores.exact_match = exact / count;
  return scores;
}

}  // namespace ascope
