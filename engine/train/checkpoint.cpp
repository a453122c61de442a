#include "engine/train/checkpoint.h"

#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "engine/core/atomic_file.h"
#include "engine/core/regular_file.h"
#include "engine/core/zip_checksums.h"

namespace ascope {
namespace {

std::string showShape(at::IntArrayRef shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  }
  return text + "]";
}

/// A tensor of the checkpoint, checked, waiting to be copied into the model.
struct PendingCopy {
  torch::Tensor target;
  torch::Tensor value;
};

/// Reads every parameter and buffer of `module` (and of its children, recursively) from
/// `archive`, as Module::load would, but into new tensors, checked against the model: Module::load
/// replaces a tensor of another shape without a word.
Status collect(torch::serialize::InputArchive& archive, torch::nn::Module& module,
               const std::string& prefix, std::vector<PendingCopy>* copies) {
  std::set<std::string> known;
  const auto take = [&](const std::string& key, const torch::Tensor& target,
                        bool is_buffer) -> Status {
    known.insert(key);
    torch::Tensor value;
    if (!archive.try_read(key, value, is_buffer) || !value.defined()) {
      return Error{"it has no tensor \"" + prefix + key +
                   "\": a checkpoint of another model (another task, preset or model settings)"};
    }
    if (value.sizes() != target.sizes()) {
      return Error{"its tensor \"" + prefix + key + "\" has shape " + showShape(value.sizes()) +
                   ", the run's model " + showShape(target.sizes()) +
                   ": a checkpoint of another model (another preset or model settings)"};
    }
    if (value.is_floating_point() && !torch::isfinite(value).all().item<bool>()) {
      return Error{"its tensor \"" + prefix + key +
                   "\" holds NaN or infinite values: the weights are damaged (a diverged run "
                   "or a corrupt file)"};
    }
    copies->push_back({target, value});
    return {};
  };
  for (const auto& parameter : module.named_parameters(/*recurse=*/false)) {
    if (Status s = take(parameter.key(), parameter.value(), false); !s.ok()) return s;
  }
  for (const auto& buffer : module.named_buffers(/*recurse=*/false)) {
    if (Status s = take(buffer.key(), buffer.value(), true); !s.ok()) return s;
  }
  for (const auto& child : module.named_children()) {
    known.insert(child.key());
    torch::serialize::InputArchive child_archive;
    if (!archive.try_read(child.key(), child_archive)) {
      return Error{"it has no part \"" + prefix + child.key() +
                   "\": a checkpoint of another model (another task, preset or model settings)"};
    }
    if (Status s = collect(child_archive, *child.value(), prefix + child.key() + ".", copies);
        !s.ok()) {
      return s;
    }
  }
  for (const std::string& key : archive.keys()) {
    if (known.count(key) != 0) continue;
    // Only tensors and parts count: an archive also holds attributes such as "training".
    torch::Tensor tensor;
    torch::serialize::InputArchive part;
    if (archive.try_read(key, tensor) || archive.try_read(key, part)) {
      return Error{"it has \"" + prefix + key +
                   "\", which the run's model lacks: a checkpoint of another model (another "
                   "preset or model settings)"};
    }
  }
  return {};
}

}  // namespace

namespace {

/// The archive of a checkpoint, handed to `sink` piece by piece.
template <typename Sink>
void writeArchive(torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                  const TrainingProgress& progress, Sink&& sink) {
  torch::serialize::OutputArchive archive;
  torch::serialize::OutputArchive model_archive;
  model.save(model_archive);
  archive.write("model", model_archive);
  if (optimizer != nullptr) {
    torch::serialize::OutputArchive optimizer_archive;
    optimizer->save(optimizer_archive);
    archive.write("optimizer", optimizer_archive);
  }
  archive.write("progress_step", torch::tensor(progress.step, torch::kLong));
  archive.write("progress_best", torch::tensor(progress.best_val_accuracy, torch::kDouble));
  archive.save_to([&sink](const void* data, std::size_t size) -> std::size_t {
    sink(data, size);
    return size;
  });
}

/// Reads a checkpoint into `model` and `optimizer`; `load` fills the archive (from a file or from
/// memory) given the device to restore tensors on. Errors begin with `name`.
template <typename Load>
Expected<TrainingProgress> readArchive(const std::string& name, torch::nn::Module& model,
                                       torch::optim::Optimizer* optimizer, Load&& load) {
  try {
    // Tensors are restored on the device the model lives on now, not the one they were saved
    // from: a run trained on a GPU server must load on a laptop without CUDA (and vice versa).
    const std::vector<torch::Tensor> parameters = model.parameters();
    const torch::Device device =
        parameters.empty() ? torch::Device(torch::kCPU) : parameters.front().device();
    torch::serialize::InputArchive archive;
    load(archive, device);
    torch::serialize::InputArchive model_archive;
    if (!archive.try_read("model", model_archive)) {
      return Error{name + ": not a checkpoint of this program (it has no \"model\")"};
    }
    std::vector<PendingCopy> copies;
    if (Status s = collect(model_archive, model, "", &copies); !s.ok()) {
      return Error{name + ": not loaded: " + s.error()};
    }
    torch::Tensor step, best;
    if (!archive.try_read("progress_step", step) || !archive.try_read("progress_best", best) ||
        step.numel() != 1 || best.numel() != 1) {
      return Error{name + ": not a checkpoint of this program (no progress_step, progress_best)"};
    }
    const TrainingProgress progress{step.item<int64_t>(), best.item<double>()};
    if (progress.step < 0) {
      return Error{name + ": progress_step " + std::to_string(progress.step) + " is negative"};
    }
    if (optimizer != nullptr) {
      torch::serialize::InputArchive optimizer_archive;
      archive.read("optimizer", optimizer_archive);
      optimizer->load(optimizer_archive);
    }
    const torch::NoGradGuard no_grad;
    for (PendingCopy& copy : copies) copy.target.copy_(copy.value);
    return progress;
  } catch (const std::exception& e) {
    // LibTorch's messages carry a C++ backtrace; the first line is the part a person can use.
    std::string what = e.what();
    what = what.substr(0, what.find('\n'));
    return Error{name + ": not a readable checkpoint for this model (" + what + ")"};
  }
}

}  // namespace

Status saveCheckpoint(const std::string& path, torch::nn::Module& model,
                      torch::optim::Optimizer* optimizer, const TrainingProgress& progress) {
  // Streamed through writeFileAtomicallyStreamed, never to a file name of LibTorch's own: its zip
  // writer throws from a destructor when the disk fills up, which ends the process.
  return writeFileAtomicallyStreamed(
      path, [&](const ByteSink& sink) { writeArchive(model, optimizer, progress, sink); });
}

Expected<TrainingProgress> loadCheckpoint(const std::string& path, torch::nn::Module& model,
                                          torch::optim::Optimizer* optimizer) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
    return Error{path + ": no such checkpoint"};
  }
  // A FIFO or device would block the reader forever.
  if (Status s = requireRegularFile(path); !s.ok()) return Error{s.error()};
  // LibTorch reads records without checking their CRC-32: flipped bytes would load as weights.
  if (Status s = verifyZipChecksums(path); !s.ok()) return Error{s.error()};
  return readArchive(path, model, optimizer,
                     [&](torch::serialize::InputArchive& archive, const torch::Device& device) {
                       archive.load_from(path, device);
                     });
}

std::string checkpointBytes(torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                            const TrainingProgress& progress) {
  std::string bytes;
  writeArchive(model, optimizer, progress, [&bytes](const void* data, std::size_t size) {
    bytes.append(static_cast<const char*>(data), size);
  });
  return bytes;
}

Expected<TrainingProgress> loadCheckpointBytes(const std::string& bytes, const std::string& name,
                                               torch::nn::Module& model,
                                               torch::optim::Optimizer* optimizer) {
  return readArchive(name, model, optimizer,
                     [&](torch::serialize::InputArchive& archive, const torch::Device& device) {
                       archive.load_from(bytes.data(), bytes.size(), device);
                     });
}

std::vector<std::string> existingCheckpoints(const std::string& run_dir, const std::string& first) {
  std::vector<std::string> paths;
  for (const std::string& name : {first, std::string(first == "best" ? "last" : "best")}) {
    const std::string path = run_dir + "/checkpoints/" + name + ".pt";
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) paths.push_back(path);
  }
  return paths;
}

Expected<LoadedCheckpoint> loadFirstCheckpoint(const std::vector<std::string>& paths,
                                               torch::nn::Module& model,
                                               torch::optim::Optimizer* optimizer) {
  std::string failures;
  for (const std::string& path : paths) {
    Expected<TrainingProgress> progress = loadCheckpoint(path, model, optimizer);
    if (progress.ok()) return LoadedCheckpoint{path, *progress, failures};
    failures += (failures.empty() ? "" : "; ") + progress.error();
  }
  if (failures.empty()) return Error{"no checkpoint given"};
  return Error{failures};
}

}  // namespace ascope
