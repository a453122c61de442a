#include "engine/scoring/translation_metrics.h"

#include "engine/scoring/corpus_chrf.h"
#include "engine/scoring/tokenizer_13a.h"
#include "engine/text/unicode/utf8_code_points.h"

namespace ascope {

std::string normalizedSpacing(const std::string& text) {
  std::string out;
  for (const std::u32string& word : splitOnWhitespace(codePoints(text))) {
    if (!out.empty()) out.push_back(' ');
    for (char32_t c : word) appendUtf8(c, out);
  }
  return out;
}

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

}  // namespace ascope
