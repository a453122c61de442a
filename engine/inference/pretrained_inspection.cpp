#include "engine/inference/pretrained_inspection.h"

#include <ATen/ATen.h>
#include <torch/types.h>
#include <torch/utils.h>

#include <algorithm>
#include <filesystem>

#include "engine/datasets/image_folder_reader.h"
#include "engine/imaging/pillow_bilinear_resize.h"
#include "engine/pretrained/pretrained_model.h"
#include "engine/pretrained/vit_processor_for_model.h"
#include "engine/tasks/attention_capture.h"
#include "engine/text/bert/bert_tokenizer.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

Status answerClasses(const at::Tensor& logits, const std::vector<std::string>& labels,
                     InferenceAnswer* answer) {
  const at::Tensor probs = logits.softmax(-1)[0].contiguous();
  // Never "LABEL_0 (p=-nan)": the weights are checked when they load, and what still overflows is
  // said as such.
  if (!at::isfinite(probs).all().item<bool>()) {
    return Error{"the model's answer is not a number (its activations overflowed)"};
  }
  const float* p = probs.data_ptr<float>();
  int64_t best = 0;
  for (int64_t c = 0; c < probs.numel(); ++c) {
    const std::string name =
        c < static_cast<int64_t>(labels.size()) ? labels[c] : "LABEL_" + std::to_string(c);
    answer->ranking.emplace_back(name, p[c]);
    if (p[c] > p[best]) best = c;
  }
  answer->label = answer->ranking[static_cast<std::size_t>(best)].first;
  answer->probability = p[best];
  return {};
}

Expected<InferenceAnswer> inspectBert(PretrainedModel& model,
                                      const PretrainedInspectionRequest& request) {
  if (!request.image_file.empty()) {
    return Error{request.model_folder + " is a BERT model: give it text, not an image"};
  }
  Expected<BertTokenizer> tokenizer = BertTokenizer::fromFolder(request.model_folder);
  if (!tokenizer.ok()) return Error{tokenizer.error()};
  BertEncodeOptions options;
  // The positions the model has are the hard limit, whatever tokenizer_config.json says.
  options.max_length = static_cast<std::size_t>(model.bert->config().max_position_embeddings);
  const BertEncoding e = request.text_pair.empty()
                             ? tokenizer->encode(request.text, options)
                             : tokenizer->encodePair(request.text, request.text_pair, options);
  const auto n = static_cast<int64_t>(e.ids.size());
  auto row = [n](const std::vector<std::int64_t>& v) {
    return torch::tensor(v, torch::kLong).reshape({1, n});
  };
  std::vector<at::Tensor> attention;
  at::Tensor logits;
  {
    torch::NoGradGuard no_grad;
    logits =
        model.bert->forward(row(e.ids), row(e.token_type_ids), row(e.attention_mask), &attention);
  }
  InferenceAnswer answer;
  if (Status s = answerClasses(logits, model.bert->config().labels, &answer); !s.ok()) {
    return Error{request.model_folder + ": " + s.error()};
  }
  answer.attention.groups.push_back(toAttentionGroup("encoder", attention, e.tokens, e.tokens));
  return answer;
}

Expected<InferenceAnswer> inspectVit(PretrainedModel& model,
                                     const PretrainedInspectionRequest& request) {
  if (request.image_file.empty()) {
    return Error{request.model_folder + " is a ViT model: give it an image, not text"};
  }
  const VitConfig& config = model.vit->config();
  // The processor fine-tuning uses (preprocessor_config.json, checked against the model), and its
  // Pillow-exact bilinear resize from the image's own size.
  Expected<VitImageProcessor> processor = vitProcessorForModel(request.model_folder, config);
  if (!processor.ok()) return Error{processor.error()};
  const int side = static_cast<int>(config.image_size);
  Expected<ImageBuffer> image = ImageFolderReader::decodeAtOwnSize(request.image_file);
  if (!image.ok()) return Error{image.error()};
  if (!processor->do_resize && (image->width != side || image->height != side)) {
    return Error{request.image_file + ": the model takes " + std::to_string(side) + "×" +
                 std::to_string(side) +
                 " images and its preprocessor_config.json does not "
                 "resize, got " +
                 std::to_string(image->width) + "×" + std::to_string(image->height)};
  }
  // What the processor resizes to, as bytes: the picture the attention is drawn over.
  std::vector<std::uint8_t> pixels = std::move(image->pixels);
  if (image->width != side || image->height != side) {
    pixels = resizeBilinearLikePillow(pixels, 3, image->height, image->width, side, side);
  }
  std::vector<float> values = processor->process(pixels, side, side);
  const at::Tensor input =
      torch::from_blob(values.data(), {1, 3, side, side}, torch::kFloat).clone();
  std::vector<at::Tensor> attention;
  at::Tensor logits;
  {
    torch::NoGradGuard no_grad;
    logits = model.vit->forward(input, &attention);
  }
  InferenceAnswer answer;
  if (Status s = answerClasses(logits, config.labels, &answer); !s.ok()) {
    return Error{request.model_folder + ": " + s.error()};
  }
  const int grid = side / static_cast<int>(config.patch_size);
  // Labelled as the engine's own ViT labels its tokens, so the patch views read them alike.
  std::vector<std::string> labels{"CLS"};
  for (int64_t p = 0; p < config.numPatches(); ++p) labels.push_back(std::to_string(p));
  answer.attention.groups.push_back(toAttentionGroup("encoder", attention, labels, labels));
  ImagePayload shown;
  shown.image = ImageBuffer{side, side, std::move(pixels)};
  shown.patch_size = static_cast<int>(config.patch_size);
  shown.grid_rows = shown.grid_cols = grid;
  answer.attention.payloads.put(makePayload(std::move(shown)));
  return answer;
}

}  // namespace

Expected<InferenceAnswer> inspectPretrained(const PretrainedInspectionRequest& request) {
  try {
    Expected<PretrainedModel> model = loadPretrainedModel(request.model_folder);
    if (!model.ok()) return Error{model.error()};
    return inspectLoadedPretrained(*model, request);
  } catch (const std::exception& e) {
    return Error{request.model_folder + ": " + e.what()};
  }
}

Expected<InferenceAnswer> inspectLoadedPretrained(PretrainedModel& model,
                                                  const PretrainedInspectionRequest& request) {
  try {
    Expected<InferenceAnswer> answer =
        model.bert ? inspectBert(model, request) : inspectVit(model, request);
    if (!answer.ok()) return answer;
    answer->task = model.model_type;
    answer->checkpoint = (fs::path(request.model_folder) / "model.safetensors").string();
    answer->attention.task = model.model_type;
    answer->attention.sample_index = -1;
    if (!model.fresh.empty()) {
      answer->note =
          "the checkpoint has no classifier for these classes: the class answer comes "
          "from a fresh, untrained head (the attention is the pretrained model's)";
    }
    return answer;
  } catch (const std::exception& e) {
    return Error{request.model_folder + ": " + e.what()};
  }
}

}  // namespace ascope
