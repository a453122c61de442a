#include "engine/tasks/translation/translation_scores.h"

#include "engine/scoring/corpus_chrf.h"
#include "engine/scoring/edit_distance.h"
#include "engine/scoring/tokenizer_13a.h"

#include <utility>

namespace ascope {

TranslationScores scoreTranslations(const std::vector<std::string>& hypotheses,
                                    const std::vector<std::string>& references) {
  TranslationScores scores;
  const std::size_t count = std::min(hypotheses.size(), references.size());
  if (count == 0) return scores;
  const std::vector<std::string> hyps(hypotheses.begin(),
                                      hypotheses.begin() + static_cast<std::ptrdiff_t>(count));
  const std::vector<std::vector<std::string>> refs{std::vector<std::string>(
      references.begin(), references.begin() + static_cast<std::ptrdiff_t>(count))};
  scores.bleu_details = corpusBleu(hyps, refs);
  scores.bleu = scores.bleu_details.score;
  scores.chrf = corpusChrf(hyps, refs);
  double char_edits = 0, ref_chars = 0, word_edits = 0, ref_words = 0, exact = 0;
  for (std::size_t s = 0; s < count; ++s) {
    const std::string hyp = normalizedSpacing(hyps[s]), ref = normalizedSpacing(refs[0][s]);
    const std::u32string hyp_chars = codePoints(hyp), ref_chars_s = codePoints(ref);
    char_edits += static_cast<double>(editDistance(hyp_chars, ref_chars_s));
    ref_chars += static_cast<double>(ref_chars_s.size());
    const auto hyp_words = splitOnWhitespace(codePoints(tokenize13a(hyp)));
    const auto ref_words_s = splitOnWhitespace(codePoints(tokenize13a(ref)));
    word_edits += static_cast<double>(editDistance(hyp_words, ref_words_s));
    ref_words += static_cast<double>(ref_words_s.size());
    exact += hyp == ref ? 1 : 0;
  }
  scores.cer = ref_chars > 0 ? char_edits / ref_chars : 0.0;
  scores.wer = ref_words > 0 ? word_edits / ref_words : 0.0;
  scores.exact_match = exact / static_cast<double>(count);
  return scores;
}

namespace {

MetricInfo metric(std::string key, std::string title, std::string description, Better better,
                  int decimals, bool tracked = true, double full_scale = 1) {
  MetricInfo m;
  m.full_scale = full_scale;
  m.key = std::move(key);
  m.title = std::move(title);
  m.description = std::move(description);
  m.better = better;
  m.decimals = decimals;
  m.tracked = tracked;
  return m;
}

}  // namespace

std::vector<MetricInfo> translationMetrics() {
  std::vector<MetricInfo> m = {
      metric("bleu", "BLEU",
             "corpus BLEU-4 as sacreBLEU computes it (13a words, exp smoothing, raw references), "
             "0 to 100",
             Better::kHigher, 1, true, 100),
      metric("chrf", "chrF", "sacreBLEU's chrF2: character n-gram F-score, 0 to 100",
             Better::kHigher, 1, true, 100),
      metric("cer", "CER", "character error rate: character edits over reference characters",
             Better::kLower, 3),
      metric("wer", "WER", "word error rate: word edits over reference words", Better::kLower, 3),
      metric("exact_match", "exact match",
             "share of translations equal to their reference, spacing aside", Better::kHigher, 3),
  };
  m.front().headline = true;
  for (int n = 1; n <= BleuScore::kMaxOrder; ++n) {
    const std::string gram = std::to_string(n) + "-gram";
    m.push_back(metric("bleu_precision_" + std::to_string(n), "BLEU " + gram + " precision",
                       "clipped " + gram + " matches over the translations' " + gram + "s, percent",
                       Better::kHigher, 1, false, 100));
  }
  m.push_back(metric("greedy_bleu", "greedy BLEU",
                     "BLEU of greedy decoding, beside a beam's (evaluate --beam K)",
                     Better::kHigher, 1, false, 100));
  m.push_back(metric("brevity_penalty", "brevity penalty",
                     "BLEU's penalty for translations shorter than their references, 0 to 1",
                     Better::kHigher, 3, false));
  m.push_back(metric("hypothesis_length", "translation words", "13a words of every translation",
                     Better::kHigher, 0, false));
  m.push_back(metric("reference_length", "reference words", "13a words of every reference",
                     Better::kHigher, 0, false));
  return m;
}

Figures translationFigures(const TranslationScores& scores, bool details) {
  Figures f;
  f.set("bleu", scores.bleu);
  f.set("chrf", scores.chrf);
  f.set("cer", scores.cer);
  f.set("wer", scores.wer);
  f.set("exact_match", scores.exact_match);
  if (!details) return f;
  const BleuScore& b = scores.bleu_details;
  for (int n = 0; n < BleuScore::kMaxOrder; ++n) {
    f.set("bleu_precision_" + std::to_string(n + 1), b.precisions[static_cast<std::size_t>(n)]);
  }
  f.set("brevity_penalty", b.brevity_penalty);
  f.set("hypothesis_length", static_cast<double>(b.hypothesis_length));
  f.set("reference_length", static_cast<double>(b.reference_length));
  return f;
}

}  // namespace ascope
