#include "engine/inference/read_run.h"

#include <utility>

#include "engine/inference/checkpoint_inference.h"
#include "engine/tasks/registry/run_config_reader.h"

namespace ascope {

Expected<OpenedRun> readRun(const std::string& dir) {
  Expected<OpenedRun> run = readRunFiles(dir);
  if (!run.ok()) return run;
  // The settings as `--resume` would take them: a model setting of the wrong type or out of its
  // range is named here, instead of reaching the window's form or the model builder.
  if (Status s = checkRunSettings(run->config, run->path + "/config.json"); !s.ok()) {
    return Error{s.error()};
  }
  // The checkpoint, tokenizers and class names are opened by LibTorch and nlohmann: checked
  // first so that a FIFO among them costs the positional encoding, not the whole run.
  if (Status files = checkRunFilesReadable(run->path); !files.ok()) {
    run->warnings.push_back(files.error());
    return run;
  }
  Expected<PositionalEncodingSnapshot> pe = positionalEncodingFromCheckpoint(run->path);
  if (pe.ok()) {
    run->positional_encoding = std::move(*pe);
  } else {
    run->warnings.push_back(pe.error());
  }
  return run;
}

}  // namespace ascope
