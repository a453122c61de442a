#include "engine/imaging/vit_image_processor.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/core/json_file.h"
#include "engine/imaging/pillow_bilinear_resize.h"

namespace ascope {
namespace {

// Pillow's numbering, which preprocessor_config.json uses for "resample".
constexpr int kPillowBilinear = 2;
constexpr int kLargestSide = 16384;

Error fieldError(const std::string& source, const std::string& field, const std::string& why) {
  return Error{source + ": \"" + field + "\" " + why};
}

Expected<bool> readBoolSetting(const nlohmann::json& j, const char* key, bool fallback,
                               const std::string& source) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_boolean()) return fieldError(source, key, "must be true or false");
  return j[key].get<bool>();
}

Expected<int> readSide(const nlohmann::json& value, const std::string& field,
                       const std::string& source) {
  if (!value.is_number_integer() || value.get<int64_t>() < 1 ||
      value.get<int64_t>() > kLargestSide) {
    return fieldError(source, field,
                      "must be a whole number of pixels in 1.." + std::to_string(kLargestSide) +
                          ", got " + value.dump());
  }
  return static_cast<int>(value.get<int64_t>());
}

Expected<std::array<float, 3>> readTriple(const nlohmann::json& j, const char* key,
                                          std::array<float, 3> fallback, bool nonzero,
                                          const std::string& source) {
  if (!j.contains(key)) return fallback;
  const nlohmann::json& v = j[key];
  // One number stands for all three channels, as the processor accepts.
  if (v.is_number()) {
    fallback.fill(v.get<float>());
  } else if (v.is_array() && v.size() == 3) {
    for (std::size_t i = 0; i < 3; ++i) {
      if (!v[i].is_number()) return fieldError(source, key, "must hold three numbers");
      fallback[i] = v[i].get<float>();
    }
  } else {
    return fieldError(source, key, "must be three numbers (one per RGB channel), got " + v.dump());
  }
  for (float f : fallback) {
    if (!std::isfinite(f) || (nonzero && f == 0.0f)) {
      return fieldError(source, key,
                        std::string("must hold finite") + (nonzero ? ", non-zero" : "") +
                            " numbers, got " + v.dump());
    }
  }
  return fallback;
}

}  // namespace

Expected<VitImageProcessor> VitImageProcessor::fromJsonText(const std::string& text,
                                                            const std::string& source) {
  Expected<nlohmann::json> parsed = parseJson(text, source);
  if (!parsed.ok()) return Error{parsed.error()};
  return fromJson(*parsed, source);
}

Expected<VitImageProcessor> VitImageProcessor::fromJson(const nlohmann::json& j,
                                                        const std::string& source) {
  if (!j.is_object()) return Error{source + ": not a JSON object"};
  VitImageProcessor p;
  Expected<bool> resize = readBoolSetting(j, "do_resize", p.do_resize, source);
  Expected<bool> rescale = readBoolSetting(j, "do_rescale", p.do_rescale, source);
  Expected<bool> normalize = readBoolSetting(j, "do_normalize", p.do_normalize, source);
  for (const Expected<bool>* b : {&resize, &rescale, &normalize}) {
    if (!b->ok()) return Error{b->error()};
  }
  p.do_resize = *resize, p.do_rescale = *rescale, p.do_normalize = *normalize;
  if (j.contains("size")) {
    const nlohmann::json& size = j["size"];
    if (size.is_object() && size.contains("height") && size.contains("width")) {
      Expected<int> h = readSide(size["height"], "size.height", source);
      if (!h.ok()) return Error{h.error()};
      Expected<int> w = readSide(size["width"], "size.width", source);
      if (!w.ok()) return Error{w.error()};
      p.height = *h, p.width = *w;
    } else if (size.is_number_integer()) {  // older files: one side for both
      Expected<int> side = readSide(size, "size", source);
      if (!side.ok()) return Error{side.error()};
      p.height = p.width = *side;
    } else {
      return fieldError(source, "size",
                        "must be {\"height\": H, \"width\": W} (shortest_edge is not a ViT size), "
                        "got " +
                            size.dump());
    }
  }
  if (j.contains("resample") &&
      !(j["resample"].is_number_integer() && j["resample"].get<int64_t>() == kPillowBilinear)) {
    return fieldError(source, "resample",
                      "must be 2 (bilinear, the ViT default; other filters are not supported), "
                      "got " +
                          j["resample"].dump());
  }
  if (j.contains("rescale_factor")) {
    const nlohmann::json& f = j["rescale_factor"];
    if (!f.is_number() || !std::isfinite(f.get<double>()) || f.get<double>() <= 0) {
      return fieldError(source, "rescale_factor", "must be a positive number, got " + f.dump());
    }
    p.rescale_factor = f.get<double>();
  }
  Expected<std::array<float, 3>> mean = readTriple(j, "image_mean", p.mean, false, source);
  if (!mean.ok()) return Error{mean.error()};
  Expected<std::array<float, 3>> std_dev = readTriple(j, "image_std", p.std, true, source);
  if (!std_dev.ok()) return Error{std_dev.error()};
  p.mean = *mean, p.std = *std_dev;
  return p;
}

Expected<VitImageProcessor> VitImageProcessor::read(const std::string& path) {
  Expected<nlohmann::json> j = readJsonFile(path);
  if (!j.ok()) return Error{j.error()};
  return fromJson(*j, path);
}

std::vector<float> VitImageProcessor::process(const std::vector<std::uint8_t>& planar_rgb,
                                              int image_height, int image_width) const {
  int h = image_height, w = image_width;
  std::vector<std::uint8_t> resized;
  const std::vector<std::uint8_t>* bytes = &planar_rgb;
  if (do_resize && (h != height || w != width)) {
    resized = resizeBilinearLikePillow(planar_rgb, 3, h, w, height, width);
    bytes = &resized;
    h = height, w = width;
  }
  const std::size_t plane = static_cast<std::size_t>(h) * static_cast<std::size_t>(w);
  std::vector<float> out(3 * plane);
  for (std::size_t c = 0; c < 3; ++c) {
    for (std::size_t i = 0; i < plane; ++i) {
      // As the processor computes: the byte times the factor in double, then float32.
      float v = static_cast<float>((*bytes)[c * plane + i]);
      if (do_rescale) v = static_cast<float>((*bytes)[c * plane + i] * rescale_factor);
      if (do_normalize) v = (v - mean[c]) / std[c];
      out[c * plane + i] = v;
    }
  }
  return out;
}

}  // namespace ascope
