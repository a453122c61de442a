#include "engine/train/checkpoint.h"

#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <filesystem>

#include "engine/core/atomic_file.h"
#include "engine/core/regular_file.h"

namespace ascope {

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
    archive.read("model", model_archive);
    model.load(model_archive);
    if (optimizer != nullptr) {
      torch::serialize::InputArchive optimizer_archive;
      archive.read("optimizer", optimizer_archive);
      optimizer->load(optimizer_archive);
    }
    torch::Tensor step, best;
    archive.read("progress_step", step);
    archive.read("progress_best", best);
    return TrainingProgress{step.item<int64_t>(), best.item<double>()};
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
  if (!std::filesystem::exists(path)) return Error{path + ": no such checkpoint"};
  // A FIFO or device would block the reader forever.
  if (Status s = requireRegularFile(path); !s.ok()) return Error{s.error()};
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

}  // namespace ascope
