#pragma once
// The translation task's figures over a corpus of hypotheses, each against its one raw reference
// sentence: BLEU and chrF exactly as sacreBLEU computes them (engine/scoring/corpus_bleu.h,
// corpus_chrf.h), so that the figure compares with published ones, and the edit rates and exact
// matches a lecture explains with. Declared to the rest of the program by translationMetrics().
#include <string>
#include <vector>

#include "engine/scoring/corpus_bleu.h"
#include "engine/vocabulary/figures.h"
#include "engine/vocabulary/metric_info.h"

namespace ascope {

struct TranslationScores {
  double bleu = 0;         ///< sacreBLEU corpus BLEU (13a, exp smoothing), 0..100
  BleuScore bleu_details;  ///< its precisions, brevity penalty and lengths
  double chrf = 0;         ///< sacreBLEU chrF2, 0..100
  double cer = 0;          ///< character edit distance / reference characters (code points)
  double wer = 0;          ///< word edit distance / reference words (13a words)
  double exact_match = 0;  ///< share of hypotheses equal to their reference (spacing aside)
};

/// Scores of `hypotheses` (detokenized text) against `references` (the raw reference text, never
/// rebuilt from token ids), one each. Empty input gives zeros.
TranslationScores scoreTranslations(const std::vector<std::string>& hypotheses,
                                    const std::vector<std::string>& references);

/// The task's declared figures: BLEU (the headline), chrF, CER, WER and exact match, tracked by
/// every evaluation pass; BLEU's n-gram precisions, brevity penalty and lengths for a whole
/// split's scoring only.
std::vector<MetricInfo> translationMetrics();

/// `scores` as figures: the tracked ones, and with `details` the rest too.
Figures translationFigures(const TranslationScores& scores, bool details);

}  // namespace ascope
