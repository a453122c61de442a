#pragma once
// The three splits of a run's data, named for what they are used for:
//   training    the samples the weights are fitted on;
//   validation  held out of training, looked at during the run: the best weights and the
//               learning curves' validation points come from it;
//   test        never looked at during training: the data set's own test split where it has one,
//               a file named as the test split, or a part carved once from the training data.
// A figure called "test" comes from the test split only.
#include <optional>
#include <string>
#include <string_view>

namespace ascope {

enum class DataSplit { kTrain, kValidation, kTest };

/// "train", "validation", "test": the command line's words and the JSON's.
const char* splitName(DataSplit split);

/// The split `name` names (splitName's words); nullopt for any other word.
std::optional<DataSplit> parseSplit(std::string_view name);

}  // namespace ascope
