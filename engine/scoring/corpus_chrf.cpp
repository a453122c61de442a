#include "engine/scoring/corpus_chrf.h"

#include <map>

#include "engine/scoring/tokenizer_13a.h"

namespace ascope {
namespace {

using Counts = std::map<std::u32string, int>;
/// Per order: (hypothesis n-grams, reference n-grams, matches).
using Statistics = std::vector<double>;

std::vector<Counts> charNgrams(const std::string& sentence, const ChrfOptions& options) {
  std::u32string s = codePoints(sentence);
  if (!options.keep_whitespace) {
    std::u32string joined;
    for (const std::u32string& w : splitOnWhitespace(s)) joined += w;
    s = std::move(joined);
  }
  std::vector<Counts> out(static_cast<std::size_t>(options.char_order));
  for (int n = 1; n <= options.char_order; ++n) {
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= s.size(); ++i) {
      ++out[static_cast<std::size_t>(n - 1)][s.substr(i, static_cast<std::size_t>(n))];
    }
  }
  return out;
}

/// chrF++'s words: punctuation split off the end (else the start) of a word longer than one.
std::vector<std::u32string> chrfWords(const std::string& sentence) {
  static const std::u32string kPunctuation = U"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
  std::vector<std::u32string> words;
  for (std::u32string& w : splitOnWhitespace(codePoints(sentence))) {
    if (w.size() == 1) {
      words.push_back(std::move(w));
    } else if (kPunctuation.find(w.back()) != std::u32string::npos) {
      words.push_back(w.substr(0, w.size() - 1));
      words.push_back(w.substr(w.size() - 1));
    } else if (kPunctuation.find(w.front()) != std::u32string::npos) {
      words.push_back(w.substr(0, 1));
      words.push_back(w.substr(1));
    } else {
      words.push_back(std::move(w));
    }
  }
  return words;
}

std::vector<Counts> allNgrams(const std::string& sentence, const ChrfOptions& options) {
  std::vector<Counts> out = charNgrams(sentence, options);
  if (options.word_order > 0) {
    const std::vector<std::u32string> words = chrfWords(sentence);
    for (int n = 1; n <= options.word_order; ++n) {
      Counts counts;
      for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= words.size(); ++i) {
        std::u32string gram;
        for (std::size_t k = i; k < i + static_cast<std::size_t>(n); ++k) {
          if (k > i) gram += U' ';
          gram += words[k];
        }
        ++counts[gram];
      }
      out.push_back(std::move(counts));
    }
  }
  return out;
}

double fScore(const Statistics& s, const ChrfOptions& options) {
  const double eps = 1e-16, factor = options.beta * options.beta;
  const std::size_t orders = s.size() / 3;
  double score = 0, average_precision = 0, average_recall = 0;
  int effective_order = 0;
  for (std::size_t i = 0; i < orders; ++i) {
    const double hyp = s[3 * i], ref = s[3 * i + 1], match = s[3 * i + 2];
    const double precision = hyp > 0 ? match / hyp : eps;
    const double recall = ref > 0 ? match / ref : eps;
    const double denominator = factor * precision + recall;
    score += denominator > 0 ? (1 + factor) * precision * recall / denominator : eps;
    if (hyp > 0 && ref > 0) {
      average_precision += precision;
      average_recall += recall;
      ++effective_order;
    }
  }
  if (options.eps_smoothing) return 100 * score / static_cast<double>(orders);
  if (effective_order == 0) return 0;
  average_precision /= effective_order;
  average_recall /= effective_order;
  if (average_precision + average_recall == 0) return 0;
  return 100 * (1 + factor) * average_precision * average_recall /
         (factor * average_precision + average_recall);
}

}  // namespace

double corpusChrf(const std::vector<std::string>& hypotheses,
                  const std::vector<std::vector<std::string>>& references,
                  const ChrfOptions& options) {
  const std::size_t orders = static_cast<std::size_t>(options.char_order + options.word_order);
  Statistics corpus(3 * orders, 0.0);
  for (std::size_t s = 0; s < hypotheses.size(); ++s) {
    const std::vector<Counts> hypothesis = allNgrams(hypotheses[s], options);
    Statistics best;
    double best_score = -1;
    for (const std::vector<std::string>& stream : references) {
      if (s >= stream.size()) continue;
      const std::vector<Counts> reference = allNgrams(stream[s], options);
      Statistics stats;
      for (std::size_t o = 0; o < orders; ++o) {
        double hyp_count = 0, ref_count = 0, matches = 0;
        for (const auto& [gram, count] : hypothesis[o]) {
          hyp_count += count;
          const auto it = reference[o].find(gram);
          if (it != reference[o].end()) matches += std::min(count, it->second);
        }
        for (const auto& entry : reference[o]) ref_count += entry.second;
        // sacreBLEU: no hypothesis n-grams count where the reference has none of that order.
        stats.insert(stats.end(), {reference[o].empty() ? 0.0 : hyp_count, ref_count, matches});
      }
      const double f = fScore(stats, options);
      if (f > best_score) {
        best_score = f;
        best = std::move(stats);
      }
    }
    for (std::size_t i = 0; i < best.size(); ++i) corpus[i] += best[i];
  }
  return fScore(corpus, options);
}

}  // namespace ascope
