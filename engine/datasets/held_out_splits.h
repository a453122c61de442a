#pragma once
// The validation and test splits a data set does not bring along, carved once from its training
// data (engine/vocabulary/data_split.h says what each split is for).
//
// Carving is by input, not by sample: samples with the same input (a review, a source sentence, an
// image's bytes) form one group, the groups are shuffled by the run's seed, and each group goes
// whole to one split. So no input sits on two sides: a sentence that Europarl repeats forty times
// cannot be learned in training and then "translated" in the test. A carved split keeps one sample
// of each of its groups (it is deduplicated); training keeps every sample of its groups, in their
// order. A split the data brings (aclImdb test/, CIFAR-10 test_batch.bin, a named file) is kept
// whole, and how many of its inputs also occur in training is said instead.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/vocabulary/datasets.h"

namespace ascope {

/// What carving decided for each sample of the training pool (indices into it).
struct HeldOutAssignment {
  std::vector<std::size_t> train;       ///< every sample of the training groups, ascending
  std::vector<std::size_t> validation;  ///< one sample per validation group, in drawn order
  std::vector<std::size_t> test;        ///< one sample per test group, in drawn order
};

/// Groups `keys` (one per sample) by equal key, shuffles the groups by `seed`, and hands
/// `test_groups` of them to test, then `validation_groups` to validation, the rest to training.
/// At least one group stays for training: the held-out counts shrink when there are too few.
HeldOutAssignment assignHeldOut(const std::vector<std::string_view>& keys,
                                std::size_t validation_groups, std::size_t test_groups,
                                std::uint64_t seed);

/// How every line that says how many held-out samples occur in training ends.
inline constexpr std::string_view kSharedWithTraining = " also occur in the training data";

/// How many of `held_out` also occur among `train`.
std::size_t countShared(const std::vector<std::string_view>& train,
                        const std::vector<std::string_view>& held_out);

/// The input that makes two samples the same one.
inline std::string_view heldOutKey(const TextSample& s) {
  return s.text;
}
inline std::string_view heldOutKey(const TranslationPair& p) {
  return p.source;
}
inline std::string_view heldOutKey(const ImageSample& s) {
  return {reinterpret_cast<const char*>(s.pixels.data()), s.pixels.size()};
}

struct HeldOutPlan {
  double validation_fraction = 0.1;  ///< of the training pool, when validation is carved
  double test_fraction = 0.1;        ///< of the training pool, when test is carved; 0 = none
  std::uint64_t seed = 42;
  std::string noun = "samples";  ///< "reviews", "pairs", "images": for the words in origins
};

/// A count with thousands separators: 25000 → "25,000".
std::string groupedCount(std::size_t n);

/// Fills the held-out splits the data did not bring (`validation` or `test` empty) from `train`
/// as above, and `origins` for the carved ones (a split the caller filled keeps the origin the
/// caller gave it). Returns lines for the log: what was carved, what overlaps.
template <class Sample>
std::vector<std::string> carveHeldOutSplits(std::vector<Sample>& train,
                                            std::vector<Sample>& validation,
                                            std::vector<Sample>& test, SplitOrigins& origins,
                                            const HeldOutPlan& plan) {
  std::vector<std::string> lines;
  auto keysOf = [](const std::vector<Sample>& samples) {
    std::vector<std::string_view> keys;
    keys.reserve(samples.size());
    for (const Sample& s : samples) keys.push_back(heldOutKey(s));
    return keys;
  };
  const bool carve_validation = validation.empty();
  const bool carve_test = test.empty() && plan.test_fraction > 0;
  const std::size_t n = train.size();
  auto share = [n](double fraction) {
    if (!(fraction > 0)) return std::size_t{0};
    return std::max<std::size_t>(1, static_cast<std::size_t>(fraction * static_cast<double>(n)));
  };
  if (carve_validation || carve_test) {
    const HeldOutAssignment a =
        assignHeldOut(keysOf(train), carve_validation ? share(plan.validation_fraction) : 0,
                      carve_test ? share(plan.test_fraction) : 0, plan.seed);
    std::vector<Sample> kept;
    kept.reserve(a.train.size());
    if (carve_validation) {
      for (std::size_t i : a.validation) validation.push_back(train[i]);
    }
    if (carve_test) {
      for (std::size_t i : a.test) test.push_back(train[i]);
    }
    for (std::size_t i : a.train) kept.push_back(std::move(train[i]));
    train = std::move(kept);
    auto carved = [&](std::size_t count, double fraction) {
      return groupedCount(count) + " " + plan.noun + " carved from the training data (" +
             std::to_string(static_cast<int>(fraction * 100 + 0.5)) +
             " %, one per distinct input, none of them in training)";
    };
    if (carve_validation) origins.validation = carved(validation.size(), plan.validation_fraction);
    if (carve_test) origins.test = carved(test.size(), plan.test_fraction);
  }
  const std::vector<std::string_view> train_keys = keysOf(train);
  auto overlap = [&](const std::vector<Sample>& split, const char* name) {
    const std::size_t shared = countShared(train_keys, keysOf(split));
    if (shared > 0) {
      lines.push_back(groupedCount(shared) + " of the " + groupedCount(split.size()) + " " + name +
                      " " + plan.noun + std::string(kSharedWithTraining));
    }
  };
  if (!carve_validation) overlap(validation, "validation");
  if (!carve_test && !test.empty()) overlap(test, "test");
  if (test.empty()) origins.test.clear();
  return lines;
}

}  // namespace ascope
