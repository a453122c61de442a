#pragma once
#include <string>

namespace ascope {

/// The per-user folder downloaded datasets go to, following the XDG base directory spec:
/// $XDG_DATA_HOME/attentionscope/datasets when XDG_DATA_HOME is an absolute path, otherwise
/// ~/.local/share/attentionscope/datasets. Empty when neither XDG_DATA_HOME nor a home folder is
/// known. Not created here.
std::string defaultDatasetsFolder();

}  // namespace ascope
