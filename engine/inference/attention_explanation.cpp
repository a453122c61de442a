#include "engine/inference/attention_explanation.h"

#include <torch/utils.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "engine/inference/attention_stages.h"
#include "engine/inference/pretrained_inspection.h"
#include "engine/inference/run_model.h"
#include "engine/pretrained/pretrained_model.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/tasks/registry/run_config_reader.h"

namespace ascope {

namespace fs = std::filesystem;

/// The model of the last question: a run's (with its validation data when a sample was asked
/// about) or a pretrained folder's, and what it was loaded from.
struct AttentionExplainer::Loaded {
  std::string key;
  std::optional<RunModel> run;
  std::optional<PretrainedModel> pretrained;
  std::vector<AttentionSite> sites;
};

namespace {

/// What makes a loaded model stale: another folder, device or checkpoint, or a checkpoint file
/// written since (a live run saves last.pt as it trains).
std::string loadKey(const ExplainRequest& r) {
  std::string key = r.run_dir + '\n' + r.model_folder + '\n' + r.device + '\n' +
                    std::to_string(static_cast<int>(r.checkpoint)) + '\n' +
                    (r.sample >= 0 ? "data" : "");
  if (!r.run_dir.empty()) {
    const std::string file = chooseCheckpoint(r.run_dir, r.checkpoint);
    std::error_code ec;
    const auto written = fs::last_write_time(file, ec);
    key += '\n' + file + '\n' + (ec ? "" : std::to_string(written.time_since_epoch().count()));
  }
  return key;
}

std::vector<AttentionSite> pretrainedSites(PretrainedModel& model) {
  if (model.bert) {
    return encoderAttentionSites(
        model.bert->layers, "encoder",
        {recordSumsOf(model.bert->position_embeddings), model.bert->embedding_norm});
  }
  return encoderAttentionSites(model.vit->layers, "encoder", {recordSumsOf(model.vit->pos_embed)});
}

const AttentionGroup* groupNamed(const AttentionSnapshot& snapshot, const std::string& name) {
  for (const AttentionGroup& g : snapshot.groups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::optional<double> largestDifference(const ComputationMatrix& weights,
                                        const AttentionMap& recorded) {
  if (recorded.values.empty() || recorded.rows != weights.rows || recorded.cols != weights.cols) {
    return std::nullopt;
  }
  double worst = 0;
  for (std::size_t i = 0; i < recorded.values.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(weights.values[i]) - recorded.values[i]));
  }
  return worst;
}

}  // namespace

AttentionExplainer::AttentionExplainer() = default;
AttentionExplainer::~AttentionExplainer() = default;

Expected<Explanation> AttentionExplainer::explain(const ExplainRequest& request) {
  try {
    if (request.run_dir.empty() == request.model_folder.empty()) {
      return Error{"give a run folder or a pretrained model folder (one of them)"};
    }
    if (!request.model_folder.empty() && request.sample >= 0) {
      return Error{"a pretrained model has no validation samples: give it text or an image"};
    }
    const std::string key = loadKey(request);
    if (!loaded_ || loaded_->key != key) {
      loaded_.reset();
      auto fresh = std::make_unique<Loaded>();
      fresh->key = key;
      if (!request.run_dir.empty()) {
        std::optional<TrainingConfig> data_config;
        if (request.sample >= 0) {
          Expected<TrainingConfig> config = readRunConfig(request.run_dir);
          if (!config.ok()) return Error{config.error()};
          data_config = *config;
        }
        Expected<RunModel> run =
            loadRunModel(request.run_dir, request.checkpoint, request.device, data_config);
        if (!run.ok()) return Error{run.error()};
        fresh->run = std::move(*run);
        fresh->sites = fresh->run->task->attentionSites();
      } else {
        Expected<PretrainedModel> model = loadPretrainedModel(request.model_folder);
        if (!model.ok()) return Error{model.error()};
        fresh->pretrained = std::move(*model);
        fresh->pretrained->module().eval();
        fresh->sites = pretrainedSites(*fresh->pretrained);
      }
      loaded_ = std::move(fresh);
    }
    Loaded& m = *loaded_;

    // The forward pass the site is recorded on, and what it answered.
    AttentionSnapshot snapshot;
    Explanation explanation;
    std::string input;
    std::function<Status()> forward;
    if (m.run) {
      Task& task = *m.run->task;
      if (request.sample >= 0) {
        const int64_t size = task.validationSize();
        if (request.sample >= size) {
          return Error{"sample " + std::to_string(request.sample) + " is out of range: " +
                       request.run_dir + " has " + std::to_string(size) + " validation samples" +
                       (size > 0 ? " (0.." + std::to_string(size - 1) + ")" : "")};
        }
        input = "validation sample " + std::to_string(request.sample);
        forward = [&]() -> Status {
          // The prediction first: its passes (a translation decodes token by token) must not be
          // the last one through the site. Then the probe as the timeline stores it (a
          // translation's decoder fed the reference), so the stages are those of the maps shown.
          explanation.answer = task.predictSample(request.sample).answer;
          std::vector<AttentionSnapshot> probed = task.probeSamples({request.sample});
          if (probed.empty()) return Error{"the run has no validation sample to probe"};
          snapshot = std::move(probed.front());
          return {};
        };
      } else if (!request.image_file.empty()) {
        input = request.image_file;
        forward = [&]() -> Status {
          Expected<ImageBuffer> image = decodeImageForRun(request.image_file, m.run->config);
          if (!image.ok()) return Error{image.error()};
          Expected<InferenceOutcome> outcome = task.inferImage(*image);
          if (!outcome.ok()) return Error{outcome.error()};
          snapshot = std::move(outcome->attention);
          explanation.answer = outcome->label;
          return {};
        };
      } else {
        input = request.text;
        forward = [&]() -> Status {
          Expected<InferenceOutcome> outcome = task.inferText(request.text);
          if (!outcome.ok()) return Error{outcome.error()};
          snapshot = std::move(outcome->attention);
          explanation.answer = outcome->label;
          return {};
        };
      }
    } else {
      input = request.image_file.empty() ? request.text : request.image_file;
      forward = [&]() -> Status {
        PretrainedInspectionRequest asked{request.model_folder, request.text, request.text_pair,
                                          request.image_file};
        Expected<InferenceAnswer> answer = inspectLoadedPretrained(*m.pretrained, asked);
        if (!answer.ok()) return Error{answer.error()};
        snapshot = std::move(answer->attention);
        explanation.answer = answer->label;
        explanation.note = answer->note;
        return {};
      };
    }

    const std::string group =
        request.group.empty() && !m.sites.empty() ? m.sites.front().group : request.group;
    Expected<AttentionSite> site = findAttentionSite(m.sites, group, request.layer);
    if (!site.ok()) return Error{site.error()};
    const AttentionGroup* shown_group = nullptr;  // in `snapshot`, once the pass has run
    Expected<AttentionComputation> computed =
        computeAttentionStages(*site, request.head, [&]() -> Expected<StageLabels> {
          torch::NoGradGuard no_grad;
          if (Status s = forward(); !s.ok()) return Error{s.error()};
          shown_group = groupNamed(snapshot, group);
          const AttentionGroup* g = shown_group;
          if (g == nullptr) {
            return Error{"the model's answer has no attention group \"" + group + "\""};
          }
          return StageLabels{g->row_labels, g->col_labels, g->col_offset};
        });
    if (!computed.ok()) return Error{computed.error()};
    explanation.computation = std::move(*computed);
    AttentionComputation& c = explanation.computation;
    c.input = input;
    c.sample_index = request.sample;
    if (m.run) {
      c.task = m.run->config.task;
      c.step = m.run->step;
      c.weights_file = m.run->checkpoint;
      if (explanation.note.empty()) explanation.note = m.run->note;
    } else {
      c.task = m.pretrained->model_type;
      c.weights_file = request.model_folder;
    }
    const AttentionGroup* g = shown_group;
    if (g != nullptr && request.layer < g->layers && request.head < g->heads) {
      explanation.recorded = g->map(request.layer, request.head);
      explanation.largest_difference = largestDifference(c.weights, explanation.recorded);
    }
    return explanation;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"explaining the attention failed: " + what.substr(0, what.find('\n'))};
  }
}

Expected<Explanation> explainAttention(const ExplainRequest& request) {
  AttentionExplainer explainer;
  return explainer.explain(request);
}

}  // namespace ascope
