#pragma once
// Labelled texts as the CSV ImdbCsvReader reads (`text,label`, one row per sample, RFC 4180
// quoting): what `attentionscope-cli split` writes for each split of a text classification task,
// so that a script outside the program (bench/imdb_tfidf_baseline.py) scores exactly the samples
// a run trained, validated and tested on, and the program reads the files back as they were.
#include <string>
#include <vector>

#include "engine/vocabulary/datasets.h"

namespace ascope {

/// The header, then each sample's text and its label (the class index: 0 negative, 1 positive
/// for reviews), in the order given.
std::string textSamplesCsv(const std::vector<TextSample>& samples);

}  // namespace ascope
