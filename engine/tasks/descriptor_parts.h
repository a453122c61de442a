#pragma once
// What the built-in tasks' descriptors have in common, written once: the tiny presets' probe
// cadence, and the model shape of a task whose settings name their layers, heads and widths as
// an encoder's do. Plain C++ (no LibTorch): descriptors include it.
#include <string>

#include "engine/tasks/loaded_dataset.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

/// A tiny preset's timeline: a probe and a stored snapshot exactly every 10 steps, whatever the
/// probe time share (tests count on it).
inline void probeEveryTenSteps(TrainingConfig& c) {
  c.probe_every_steps = 10;
  c.probe_time_share = 1.0;
  c.snapshot_every_steps = c.probe_every_steps;
}

/// The task's settings struct `Settings` as config.json holds them, read (TaskSettings::read's
/// checks of kinds and ranges) and then valid by its own `validate()`.
template <typename Settings>
Status validateSettings(const TrainingConfig& c) {
  Expected<Settings> settings = c.task_settings.read<Settings>();
  if (!settings.ok()) return Error{settings.error()};
  return settings->validate();
}

/// The checks of a task that makes its own data (`what_it_makes`: "its own words") and has its
/// own model settings `Settings`: data must be "builtin", and the settings valid.
template <typename Settings>
Status validateGeneratedTask(const TrainingConfig& c, const std::string& task_name,
                             const std::string& what_it_makes) {
  if (!usesBuiltinData(c)) {
    return Error{"the " + task_name + " task makes " + what_it_makes +
                 ": data must be builtin, got \"" + c.data + "\""};
  }
  return validateSettings<Settings>(c);
}

/// `model_shape` and `set_model_shape` for a task whose model settings `Settings` (stored in
/// TrainingConfig::task_settings) have `layers`, `heads`, `d_model` and `d_ff`, and no patches.
template <typename Settings>
void useEncoderShape(TaskDescriptor& d) {
  d.model_shape = [](const TrainingConfig& c) {
    const Expected<Settings> m = c.task_settings.read<Settings>();
    if (!m.ok()) return ModelShape{};
    return ModelShape{m->layers, m->heads, m->d_model, m->d_ff, 0};
  };
  d.set_model_shape = [](TrainingConfig& c, const ModelShape& s) {
    Settings& m = c.task_settings.as<Settings>();
    m.layers = s.layers, m.heads = s.heads, m.d_model = s.d_model, m.d_ff = s.d_ff;
  };
}

}  // namespace ascope
