#pragma once
// The three splits of a task's data as TrainingConfig::splits asks for them: the training data of
// `data`, a validation and a test file when they are named, the data set's own test split, and the
// rest carved from the training data (engine/datasets/held_out_splits.h).
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "engine/datasets/held_out_splits.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

/// Every sample a named validation or test file holds: its own test split when it is a whole data
/// set with one (an aclImdb folder named as the test data means its test/), else all of it.
template <class Dataset>
auto namedSplitSamples(Dataset& loaded) {
  return std::move(loaded.test.empty() ? loaded.train : loaded.test);
}

/// Generated data: the generator's held-out samples (none of them in training) shared out, the
/// first half to validation and the rest to test; the training samples stay as generated, so a
/// built-in run trains on the same data whatever its splits. Runs of layout 1 keep them whole.
template <class Dataset>
void shareGeneratedHeldOut(Dataset& data, const TrainingConfig& c, const char* noun) {
  if (c.splits.layout == 1) return;
  const std::size_t half = data.test.size() / 2;
  data.validation.assign(std::make_move_iterator(data.test.begin()),
                         std::make_move_iterator(data.test.begin() + static_cast<long>(half)));
  data.test.erase(data.test.begin(), data.test.begin() + static_cast<long>(half));
  data.origins.validation = "the first " + groupedCount(data.validation.size()) +
                            " of the generator's held-out " + noun + " (none of them in training)";
  data.origins.test = "the last " + groupedCount(data.test.size()) +
                      " of the generator's held-out " + noun + " (none of them in training)";
}

/// `data` as loaded (training samples in `train`, the data set's own test split, if any, in
/// `test`) with its held-out splits arranged; `load(path)` reads a named file the way `data` was
/// read. A run of layout 1 (made before separate test splits) keeps its one held-out split, which
/// the loader put in `test`, as validation, and names it as its test split too, for what it was.
template <class Dataset, class Load>
Expected<Dataset> withHeldOutSplits(Dataset data, const TrainingConfig& c, const char* noun,
                                    Load load, std::vector<std::string>* warnings) {
  const DataSplitsConfig& s = c.splits;
  if (s.layout == 1) {
    data.validation = data.test;
    data.origins.validation = "the held-out split (a run made before separate test splits)";
    data.origins.test =
        "its validation split, reused: this run was made before separate test "
        "splits, so its final figure is not an independent test";
    return data;
  }
  if (!data.test.empty() && data.origins.test.empty()) {
    data.origins.test = "the data set's own test split";
  }
  if (!s.test_data.empty()) {
    Expected<Dataset> named = load(s.test_data);
    if (!named.ok()) return Error{"test data: " + named.error()};
    data.test = namedSplitSamples(*named);
    data.origins.test = s.test_data + " (named as the test data)";
  }
  if (!s.validation_data.empty()) {
    Expected<Dataset> named = load(s.validation_data);
    if (!named.ok()) return Error{"validation data: " + named.error()};
    data.validation = namedSplitSamples(*named);
    data.origins.validation = s.validation_data + " (named as the validation data)";
    if (data.validation.empty()) return Error{s.validation_data + ": no validation " + noun};
  }
  HeldOutPlan plan;
  plan.validation_fraction = s.validation_fraction;
  plan.test_fraction = s.test_fraction;
  plan.seed = c.seed;
  plan.noun = noun;
  std::vector<std::string> lines =
      carveHeldOutSplits(data.train, data.validation, data.test, data.origins, plan);
  if (warnings != nullptr) warnings->insert(warnings->end(), lines.begin(), lines.end());
  return data;
}

}  // namespace ascope
