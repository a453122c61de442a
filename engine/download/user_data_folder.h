#pragma once
#include <string>

namespace ascope {

/// AttentionScope's per-user data folder, following the XDG base directory spec:
/// $XDG_DATA_HOME/attentionscope when XDG_DATA_HOME is an absolute path, otherwise
/// ~/.local/share/attentionscope. Empty when neither XDG_DATA_HOME nor a home folder is known.
/// Not created here.
std::string userDataFolder();

}  // namespace ascope
