#pragma once
// Gets a pretrained model from the Hugging Face hub (or a mirror) into a model folder:
//
//   <folder>.part/   the download in progress (model_staging_folder.h); kept on any failure so
//                    that the next run resumes, and renamed to <folder> once every file checked out
//   <folder>/        config.json, the tokenizer or preprocessor files, the weights
//
// Every file is <endpoint>/<id>/resolve/main/<file>. config.json comes first; its model_type says
// what else the model needs (model_file_plan.h). A HEAD request gives each file's size and, for
// the large files kept in LFS, their SHA-256, which the downloaded file must match; no file is
// written past its size, and the sizes must fit the disk before the first large transfer. The
// folder records which model it holds (model_origin.h). Plain C++ with no Qt and no LibTorch: a
// GUI calls fetch() from a worker thread and cancels through the atomic flag (any request ends
// within a tenth of a second); the callbacks run on that thread.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/download/download_progress.h"
#include "engine/download/models/model_id.h"
#include "engine/download/transfer_limits.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class HubModelAccess;

/// The hub's address when neither the options nor the environment give one.
inline constexpr const char* kDefaultHubEndpoint = "https://huggingface.co";

struct ModelDownloadOptions {
  /// The hub or a mirror, e.g. "https://huggingface.co". Empty: $ATTENTIONSCOPE_HF_ENDPOINT when
  /// set, else kDefaultHubEndpoint.
  std::string endpoint;
  /// An access token for private and gated models. Empty: $HF_TOKEN when set, else none. Sent
  /// only to an https endpoint or to this machine (hub_model_access.h).
  std::string token;
  /// Connection and stall timeouts of every request.
  TransferLimits limits;
  /// Downloads again into a folder that already holds a model (this one or another), replacing the
  /// model's files once every new one checked out; the folder's other files are kept.
  bool force = false;
  /// Told before each file's transfer, with its size (-1: unknown); optional.
  std::function<void(const std::string& file, std::int64_t size)> on_file;
};

struct ModelFile {
  std::string name;
  std::int64_t size = 0;
};

/// What fetch() produced.
struct DownloadedModel {
  /// The model folder.
  std::string folder;
  /// config.json's model_type, e.g. "bert" or "vit".
  std::string model_type;
  /// The hub commit main resolved to when config.json was fetched; empty when already_present or
  /// when the server did not say.
  std::string commit;
  /// True when the folder held this model already and nothing was fetched.
  bool already_present = false;
  /// The folder's files with their sizes, by name (hidden ones left out).
  std::vector<ModelFile> files;
  /// Things a person should see, e.g. that the weights are pytorch_model.bin.
  std::vector<std::string> warnings;
};

class ModelDownloader {
 public:
  explicit ModelDownloader(ModelDownloadOptions options = {});

  /// Makes `folder` hold model `id`; does nothing when it holds that model already (unless
  /// options.force). Errors are one line naming the file or URL and the reason: a folder that
  /// holds another model, a model that needs a token, a file the hub lacks, a size or SHA-256
  /// mismatch (with both values), a file larger than it may be or than the disk has room for, a
  /// transfer that broke off or was cancelled (run again to resume).
  Expected<DownloadedModel> fetch(const ModelId& id, const std::string& folder,
                                  const ProgressCallback& progress,
                                  const std::atomic<bool>* cancel) const;

  /// True when `folder` has config.json and weights (model.safetensors or pytorch_model.bin).
  static bool holdsModel(const std::string& folder);

 private:
  /// The folder holds a model and no --force: `id` itself, or an Error naming what it holds.
  Expected<DownloadedModel> presentModel(const HubModelAccess& hub, DownloadedModel result) const;

  ModelDownloadOptions options_;
};

}  // namespace ascope
