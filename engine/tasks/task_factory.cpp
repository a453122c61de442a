// Where each task gets its data: generated (built-in) or read from a path, then tokenizers fitted.
#include <spdlog/spdlog.h>

#include "engine/builtin/english_italian_phrases.h"
#include "engine/builtin/sentiment_reviews.h"
#include "engine/builtin/shape_images.h"
#include "engine/data/image_dataset_loader.h"
#include "engine/data/text_dataset_loader.h"
#include "engine/data/translation_dataset_loader.h"
#include "engine/tasks/image_classification_task.h"
#include "engine/tasks/sentiment_task.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation_task.h"

namespace ascope {

Expected<InferenceOutcome> Task::inferText(const std::string&) {
  return Error{"this task classifies images; give --image"};
}

Expected<InferenceOutcome> Task::inferImage(const ImageBuffer&) {
  return Error{"this task reads text; give --text"};
}

namespace {

bool isBuiltin(const TrainingConfig& c) { return c.data.empty() || c.data == "builtin"; }

template <typename Dataset>
Expected<Dataset> takeLoaded(Expected<Loaded<Dataset>> loaded, std::vector<std::string>* warnings) {
  if (!loaded.ok()) return Error{loaded.error()};
  if (warnings != nullptr) {
    warnings->insert(warnings->end(), loaded->warnings.begin(), loaded->warnings.end());
  }
  return std::move(loaded->dataset);
}

Expected<ImageDataset> imageData(const TrainingConfig& c, std::vector<std::string>* warnings) {
  if (isBuiltin(c)) {
    return generateShapeImages({c.builtin.train_count, c.builtin.test_count, c.builtin.seed,
                                static_cast<int>(c.vit.image_size)});
  }
  ImageLoadOptions options;
  options.height = options.width = static_cast<int>(c.vit.image_size);
  options.seed = c.seed;
  return takeLoaded(loadImageDataset(c.data, options), warnings);
}

Expected<TextDataset> textData(const TrainingConfig& c, std::vector<std::string>* warnings) {
  if (isBuiltin(c)) {
    return generateSentimentReviews({c.builtin.train_count, c.builtin.test_count, c.builtin.seed});
  }
  TextLoadOptions options;
  options.seed = c.seed;
  return takeLoaded(loadTextDataset(c.data, options), warnings);
}

Expected<TranslationDataset> translationData(const TrainingConfig& c,
                                             std::vector<std::string>* warnings) {
  if (isBuiltin(c)) {
    return generateEnglishItalianPhrases(
        {c.builtin.train_count, c.builtin.test_count, c.builtin.seed});
  }
  TranslationLoadOptions options;
  options.source_language = c.source_language;
  options.target_language = c.target_language;
  options.seed = c.seed;
  return takeLoaded(loadTranslationDataset(c.data, options), warnings);
}

template <typename Pairs>
std::vector<std::string_view> side(const Pairs& pairs, bool source) {
  std::vector<std::string_view> out;
  out.reserve(pairs.size());
  for (const auto& p : pairs) out.emplace_back(source ? p.source : p.target);
  return out;
}

}  // namespace

Expected<std::unique_ptr<Task>> makeTrainingTask(const TrainingConfig& config,
                                                 const torch::Device& device,
                                                 std::vector<std::string>* warnings) {
  if (config.task == "vit") {
    Expected<ImageDataset> data = imageData(config, warnings);
    if (!data.ok()) return Error{data.error()};
    if (data->train.empty() || data->test.empty()) {
      return Error{config.data + ": needs both training and test images"};
    }
    return std::unique_ptr<Task>(
        std::make_unique<ImageClassificationTask>(config, std::move(*data), device));
  }
  if (config.task == "imdb") {
    Expected<TextDataset> data = textData(config, warnings);
    if (!data.ok()) return Error{data.error()};
    if (data->train.empty() || data->test.empty()) {
      return Error{config.data + ": needs both training and test reviews"};
    }
    ImdbWordTokenizer tokenizer = ImdbWordTokenizer::fit(data->train, config.min_freq);
    return std::unique_ptr<Task>(std::make_unique<SentimentTask>(config, std::move(*data),
                                                                 std::move(tokenizer), device));
  }
  if (config.task == "translate") {
    Expected<TranslationDataset> data = translationData(config, warnings);
    if (!data.ok()) return Error{data.error()};
    if (data->train.empty() || data->validation.empty()) {
      return Error{config.data + ": needs both training and validation pairs"};
    }
    auto source = TranslationWordTokenizer::fit(side(data->train, true), config.min_freq);
    auto target = TranslationWordTokenizer::fit(side(data->train, false), config.min_freq);
    auto task = std::make_unique<TranslationTask>(config, std::move(*data), std::move(source),
                                                  std::move(target), device);
    if (task->droppedForLength() > 0 && warnings != nullptr) {
      warnings->push_back(std::to_string(task->droppedForLength()) +
                          " sentence pairs dropped: longer than seq_len " +
                          std::to_string(config.translator.seq_len));
    }
    if (task->trainSize() == 0) return Error{"no sentence pair fits seq_len"};
    return std::unique_ptr<Task>(std::move(task));
  }
  return Error{"unknown task \"" + config.task + "\""};
}

Expected<std::unique_ptr<Task>> makeInferenceTask(const TrainingConfig& config,
                                                  const std::string& run_dir,
                                                  const torch::Device& device) {
  if (config.task == "vit") {
    Expected<std::vector<std::string>> names = loadClassNames(run_dir);
    if (!names.ok()) return Error{names.error()};
    ImageDataset empty;
    empty.class_names = std::move(*names);
    empty.height = empty.width = static_cast<int>(config.vit.image_size);
    return std::unique_ptr<Task>(
        std::make_unique<ImageClassificationTask>(config, std::move(empty), device));
  }
  if (config.task == "imdb") {
    Expected<ImdbWordTokenizer> tokenizer = ImdbWordTokenizer::load(run_dir + "/tokenizer.json");
    if (!tokenizer.ok()) return Error{tokenizer.error()};
    return std::unique_ptr<Task>(
        std::make_unique<SentimentTask>(config, TextDataset{}, std::move(*tokenizer), device));
  }
  if (config.task == "translate") {
    auto source = TranslationWordTokenizer::load(run_dir + "/tokenizer_" + config.source_language + ".json");
    if (!source.ok()) return Error{source.error()};
    auto target = TranslationWordTokenizer::load(run_dir + "/tokenizer_" + config.target_language + ".json");
    if (!target.ok()) return Error{target.error()};
    return std::unique_ptr<Task>(std::make_unique<TranslationTask>(
        config, TranslationDataset{}, std::move(*source), std::move(*target), device));
  }
  return Error{"unknown task \"" + config.task + "\""};
}

}  // namespace ascope
