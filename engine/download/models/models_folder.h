#pragma once
#include <string>

namespace ascope {

/// The per-user folder downloaded models go to: $XDG_DATA_HOME/attentionscope/models when
/// XDG_DATA_HOME is an absolute path, otherwise ~/.local/share/attentionscope/models (the same
/// rules as the datasets folder). Empty when neither XDG_DATA_HOME nor a home folder is known. Not
/// created here.
std::string defaultModelsFolder();

}  // namespace ascope
