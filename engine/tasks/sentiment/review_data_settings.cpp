#include "engine/tasks/sentiment/review_data_settings.h"

#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status ReviewDataSettings::validate() const {
  if (Status s = config_checks::inRange("min_freq", min_freq, 1, 100'000'000); !s.ok()) return s;
  if (Status s = config_checks::inRange("pair_min_freq", pair_min_freq, 0, 100'000'000); !s.ok()) {
    return s;
  }
  // Below 1: a review must keep some of its words.
  return config_checks::realInRange("word_dropout", word_dropout, 0.0, 0.9);
}

}  // namespace ascope
