#include "engine/tasks/sentiment/review_data_settings.h"

#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status ReviewDataSettings::validate() const {
  return config_checks::inRange("min_freq", min_freq, 1, 100'000'000);
}

}  // namespace ascope
