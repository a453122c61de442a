#include "engine/handout/handout_packer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "engine/core/float_bytes.h"
#include "engine/handout/base64.h"
#include "engine/handout/handout_calibration.h"
#include "engine/handout/handout_computation_packing.h"
#include "engine/handout/quantized_weights.h"

namespace ascope {
namespace {

using nlohmann::json;

std::string b64(const std::vector<std::uint8_t>& bytes) {
  return base64Encode(bytes.data(), bytes.size());
}

std::string float64s(const std::vector<double>& values) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 8);
  for (double v : values) appendFloat64(bytes, v);
  return b64(bytes);
}

std::string float32s(const std::vector<double>& values) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 4);
  for (double v : values) appendFloat32(bytes, static_cast<float>(v));
  return b64(bytes);
}

/// A number JSON can hold (NaN and infinities are not JSON): null for those.
json number(double value) {
  return std::isfinite(value) ? json(value) : json(nullptr);
}

/// The series as drawn: train series of more than kMaxCurvePoints averaged in even buckets.
HandoutSeries thinned(const HandoutSeries& series) {
  const std::size_t n = std::min(series.steps.size(), series.values.size());
  if (n <= kMaxCurvePoints) return series;
  HandoutSeries out = series;
  out.steps.clear();
  out.values.clear();
  for (std::size_t b = 0; b < kMaxCurvePoints; ++b) {
    const std::size_t begin = b * n / kMaxCurvePoints, end = (b + 1) * n / kMaxCurvePoints;
    double sum = 0;
    std::size_t finite = 0;
    for (std::size_t i = begin; i < end; ++i) {
      if (std::isfinite(series.values[i])) sum += series.values[i], ++finite;
    }
    out.steps.push_back(series.steps[end - 1]);
    out.values.push_back(finite > 0 ? sum / static_cast<double>(finite) : std::nan(""));
  }
  return out;
}

std::size_t jsonBytes(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace).size();
}

std::size_t hashOf(const std::string& kind, const void* data, std::size_t size) {
  return std::hash<std::string>{}(kind + std::string(static_cast<const char*>(data), size));
}

json predictionJson(const HandoutPrediction& p,
                    const std::function<int(const std::string&)>& text) {
  return json{{"text", text(p.text)},
              {"truth", text(p.truth)},
              {"prediction", text(p.prediction)},
              {"probability", number(p.probability)},
              {"correct", p.correct}};
}

json decodingJson(const std::vector<HandoutDecodingStep>& steps) {
  json out = json::array();
  for (const HandoutDecodingStep& step : steps) {
    json top = json::array();
    for (const auto& [token, probability] : step.top) top.push_back({token, number(probability)});
    out.push_back(std::move(top));
  }
  return out;
}

std::vector<std::int8_t> packedEncoding(const HandoutPositionalEncoding& pe, float& scale) {
  std::vector<std::int8_t> codes;
  scale = quantizeSigned(pe.values.data(), pe.values.size(), codes);
  return codes;
}

json runSection(const HandoutData& data) {
  return {{"name", data.run_name},
          {"task", data.task},
          {"task_title", data.task_title},
          {"terms",
           {{"input", data.input_term},
            {"expected", data.expected_term},
            {"answer", data.answer_term},
            {"free_text", data.free_text}}}};
}

json settingsSection(const std::vector<HandoutSetting>& settings) {
  json out = json::array();
  for (const HandoutSetting& s : settings) out.push_back({s.key, s.value});
  return out;
}

json curvesSection(const std::vector<HandoutSeries>& series) {
  json out = json::array();
  for (const HandoutSeries& original : series) {
    const HandoutSeries s = thinned(original);
    out.push_back({{"metric", s.metric},
                   {"label", s.label},
                   {"chart", s.chart},
                   {"split", s.split},
                   {"points", s.steps.size()},
                   {"averaged_from", original.steps.size()},
                   {"steps", float64s(s.steps)},
                   {"values", float32s(s.values)}});
  }
  return out;
}

json testSection(const HandoutTest& test) {
  json figures = json::array();
  for (const HandoutFigure& f : test.figures) {
    figures.push_back({{"metric", f.metric}, {"label", f.label}, {"value", number(f.value)}});
  }
  return {{"step", test.step}, {"description", test.description}, {"figures", std::move(figures)}};
}

json notesSection(const std::vector<HandoutNote>& notes) {
  json out = json::array();
  for (const HandoutNote& n : notes) {
    out.push_back({{"step", n.step}, {"kind", n.kind}, {"text", n.text}});
  }
  return out;
}

/// The probe samples the frames keep: the first `kept`.
json probeSamplesSection(const std::vector<int>& samples, int kept) {
  json out = json::array();
  for (int p = 0; p < kept && static_cast<std::size_t>(p) < samples.size(); ++p) {
    out.push_back(samples[static_cast<std::size_t>(p)]);
  }
  return out;
}

json groupsSection(const std::vector<HandoutGroup>& groups, const HandoutSelection& selection) {
  json out = json::array();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const HandoutGroup& group = groups[g];
    const bool kept = g < selection.groups.size() && selection.groups[g];
    out.push_back({{"title", group.title},
                   {"query_title", group.query_title},
                   {"key_title", group.key_title},
                   {"causal", group.causal},
                   {"aggregate_of", group.aggregate_of},
                   {"layer_names", group.layer_names},
                   {"run_max", number(group.run_max)},
                   {"kept", kept}});
  }
  return out;
}

/// Each head's series thinned evenly to kMaxHeadStatSteps steps, 8 bits over its range.
json headStatsSection(const HandoutHeadStats& hs) {
  const std::vector<int> keep =
      evenlySpaced(static_cast<int>(hs.steps.size()),
                   static_cast<int>(std::min(hs.steps.size(), kMaxHeadStatSteps)));
  std::vector<double> steps;
  for (int i : keep) steps.push_back(hs.steps[static_cast<std::size_t>(i)]);
  json metrics = json::array();
  for (const HandoutHeadMetric& m : hs.metrics) {
    metrics.push_back(
        {{"name", m.name}, {"description", m.description}, {"unit_range", m.unit_range}});
  }
  json series = json::array();
  for (const HandoutHeadSeries& s : hs.series) {
    std::vector<float> values;
    for (int i : keep) {
      values.push_back(static_cast<std::size_t>(i) < s.values.size()
                           ? s.values[static_cast<std::size_t>(i)]
                           : std::nanf(""));
    }
    std::vector<std::uint8_t> codes;
    const QuantizedRange range = quantizeRange(values.data(), values.size(), codes);
    series.push_back({{"group", s.group},
                      {"layer", s.layer},
                      {"head", s.head},
                      {"metric", s.metric},
                      {"low", range.low},
                      {"high", range.high},
                      {"values", b64(codes)}});
  }
  json changes = json::array();
  for (const HandoutHeadChange& c : hs.changes) {
    changes.push_back({{"step", c.step},
                       {"group", c.group},
                       {"layer", c.layer},
                       {"head", c.head},
                       {"kind", c.kind},
                       {"text", c.text}});
  }
  return {{"groups", hs.groups},         {"metrics", std::move(metrics)},
          {"steps", float64s(steps)},    {"measured_steps", hs.steps.size()},
          {"series", std::move(series)}, {"changes", std::move(changes)}};
}

json ablationSection(const HandoutAblation& ablation) {
  const std::vector<HandoutFigureInfo>& infos = ablation.figures;
  const auto row = [&infos](const HandoutAblationRow& r) {
    json figures = json::object();
    for (std::size_t i = 0; i < infos.size() && i < r.figures.size(); ++i) {
      figures[infos[i].key] = r.figures[i] ? number(*r.figures[i]) : json(nullptr);
    }
    return json{{"group", r.group},
                {"layer", r.layer},
                {"head", r.head},
                {"ablation", r.ablation},
                {"loss", number(r.loss)},
                {"accuracy", number(r.accuracy)},
                {"figures", std::move(figures)}};
  };
  json figure_infos = json::array();
  for (const HandoutFigureInfo& f : infos) {
    figure_infos.push_back({{"key", f.key},
                            {"label", f.label},
                            {"decimals", f.decimals},
                            {"lower_better", f.lower_better}});
  }
  json rows = json::array();
  for (const HandoutAblationRow& r : ablation.rows) rows.push_back(row(r));
  return {{"step", ablation.step},
          {"samples", ablation.samples},
          {"figures", std::move(figure_infos)},
          {"baseline", row(ablation.baseline)},
          {"rows", std::move(rows)}};
}

}  // namespace

int HandoutPacker::labelList(const std::vector<std::string>& labels) {
  if (labels.empty()) return -1;
  auto [it, added] = label_index_.emplace(labels, static_cast<int>(label_lists_.size()));
  if (added) label_lists_.push_back(labels);
  return it->second;
}

int HandoutPacker::text(const std::string& value) {
  auto [it, added] = text_index_.emplace(value, static_cast<int>(texts_.size()));
  if (added) texts_.push_back(value);
  return it->second;
}

int HandoutPacker::image(const HandoutImage& img) {
  if (!img.valid()) return -1;
  const std::string key(img.rgb_planar.begin(), img.rgb_planar.end());
  auto [it, added] = image_index_.emplace(key, static_cast<int>(images_.size()));
  if (added) {
    images_.push_back(json{{"width", img.width},
                           {"height", img.height},
                           {"grid_rows", img.grid_rows},
                           {"grid_cols", img.grid_cols},
                           {"rgb", b64(img.rgb_planar)}});
  }
  return it->second;
}

int HandoutPacker::encoding(const HandoutPositionalEncoding& pe) {
  float scale = 0;
  const std::vector<std::int8_t> codes = packedEncoding(pe, scale);
  std::string key(reinterpret_cast<const char*>(codes.data()), codes.size());
  key += pe.kind + "/" + std::to_string(pe.positions) + "/" + std::to_string(scale);
  auto [it, added] = encoding_index_.emplace(key, static_cast<int>(encodings_.size()));
  if (added) {
    encodings_.push_back(json{{"kind", pe.kind},
                              {"positions", pe.positions},
                              {"dims", pe.dims},
                              {"grid_rows", pe.grid_rows},
                              {"grid_cols", pe.grid_cols},
                              {"has_cls", pe.has_cls},
                              {"scale", scale},
                              {"values", base64Encode(codes.data(), codes.size())}});
  }
  return it->second;
}

json HandoutPacker::packFrame(const HandoutFrame& frame, const HandoutSelection& selection) {
  json probes = json::array();
  const int probe_count = std::min(selection.probes, static_cast<int>(frame.probes.size()));
  for (int p = 0; p < probe_count; ++p) {
    const HandoutProbe& probe = frame.probes[static_cast<std::size_t>(p)];
    json attention = json::array();
    for (const HandoutAttention& a : probe.attention) {
      const auto g = static_cast<std::size_t>(a.group);
      if (g >= selection.groups.size() || !selection.groups[g]) continue;
      const std::vector<bool>& kept_layers = selection.layers[g];
      json layers = json::array();
      std::vector<std::uint8_t> codes, scales;
      const std::size_t map_size = static_cast<std::size_t>(a.rows) * a.cols;
      for (int l = 0; l < a.layers; ++l) {
        if (static_cast<std::size_t>(l) < kept_layers.size() && !kept_layers[l]) continue;
        layers.push_back(l);
        for (int h = 0; h < a.heads; ++h) {
          const float* map =
              a.weights.data() + (static_cast<std::size_t>(l) * a.heads + h) * map_size;
          appendFloat32(scales, quantizeWeights(map, map_size, codes));
        }
      }
      if (layers.empty()) continue;
      json item{{"group", a.group},
                {"layers", std::move(layers)},
                {"heads", a.heads},
                {"rows", a.rows},
                {"cols", a.cols},
                {"row_labels", labelList(a.row_labels)},
                {"col_labels", labelList(a.col_labels)},
                {"row_predictions", labelList(a.row_predictions)},
                {"scales", b64(scales)},
                {"weights", b64(codes)}};
      attention.push_back(std::move(item));
    }
    json out{{"sample", probe.sample_index},
             {"image", image(probe.image)},
             {"attention", std::move(attention)},
             {"decoding", decodingJson(probe.decoding)},
             {"fed_reference", probe.decoder_fed_reference}};
    out["prediction"] =
        probe.prediction
            ? predictionJson(*probe.prediction, [this](const std::string& t) { return text(t); })
            : json(nullptr);
    probes.push_back(std::move(out));
  }
  return json{{"step", frame.step},
              {"encoding", frame.positional_encoding ? encoding(*frame.positional_encoding) : -1},
              {"probes", std::move(probes)}};
}

void HandoutPacker::packLesson(const HandoutLesson& lesson) {
  json moments = json::array();
  for (const HandoutLessonMoment& m : lesson.moments) {
    json inputs = json::array();
    for (const HandoutLessonInput& in : m.inputs) {
      std::vector<std::uint8_t> codes;
      const float scale = quantizeWeights(in.weights.data(), in.weights.size(), codes);
      inputs.push_back({{"name", in.name},
                        {"text", in.text.empty() ? -1 : text(in.text)},
                        {"image", image(in.image)},
                        {"rows", in.rows},
                        {"cols", in.cols},
                        {"row_labels", labelList(in.row_labels)},
                        {"col_labels", labelList(in.col_labels)},
                        {"scale", number(scale)},
                        {"weights", b64(codes)}});
    }
    const json head = m.inputs.empty()
                          ? json(nullptr)
                          : json{{"group", m.group_title},   {"query_title", m.query_title},
                                 {"key_title", m.key_title}, {"causal", m.causal},
                                 {"layer", m.layer},         {"head", m.head},
                                 {"query", m.query}};
    moments.push_back({{"question", m.question},
                       {"view", m.view},
                       {"hidden", m.hidden},
                       {"run",
                        {{"name", m.run_name},
                         {"task", m.task},
                         {"task_title", m.task_title},
                         {"this_run", m.this_run}}},
                       {"step", m.step},
                       {"sample", m.sample},
                       {"head", head},
                       {"inputs", std::move(inputs)}});
  }
  lesson_ = json{{"title", lesson.title}, {"moments", std::move(moments)}};
}

void HandoutPacker::packComputations(const std::vector<HandoutComputation>& computations,
                                     const std::vector<HandoutGroup>& groups) {
  computations_ = json::array();
  for (const HandoutComputation& c : computations) {
    int group = -1;
    for (std::size_t g = 0; g < groups.size() && group < 0; ++g) {
      if (groups[g].key == c.computation.group) group = static_cast<int>(g);
    }
    computations_.push_back(packComputation(
        c, group, [this](const std::vector<std::string>& labels) { return labelList(labels); }));
  }
  if (computations_.empty()) computations_ = nullptr;
}

HandoutCosts::Frame HandoutPacker::measureFrame(const HandoutFrame& frame, int group_count) {
  HandoutCosts::Frame cost;
  const auto first_time = [this](std::size_t hash) {
    return measured_.emplace(std::to_string(hash), true).second;
  };
  cost.overhead = 64;
  if (frame.positional_encoding) {
    const HandoutPositionalEncoding& pe = *frame.positional_encoding;
    float scale = 0;
    const std::vector<std::int8_t> codes = packedEncoding(pe, scale);
    if (first_time(hashOf("E" + std::to_string(scale), codes.data(), codes.size()))) {
      cost.overhead += base64Size(codes.size()) + 160;
    }
  }
  for (const HandoutProbe& probe : frame.probes) {
    std::size_t overhead = 160;
    const auto strings = [&](const std::vector<std::string>& list) {
      std::string joined;
      for (const std::string& s : list) joined += s + '\0';
      if (!list.empty() && first_time(hashOf("L", joined.data(), joined.size()))) {
        overhead += joined.size() + 4 * list.size() + 8;
      }
    };
    const auto one = [&](const std::string& s) {
      if (first_time(hashOf("T", s.data(), s.size()))) overhead += s.size() + 8;
    };
    if (probe.image.valid() &&
        first_time(hashOf("I", probe.image.rgb_planar.data(), probe.image.rgb_planar.size()))) {
      overhead += base64Size(probe.image.rgb_planar.size()) + 96;
    }
    if (probe.prediction) {
      one(probe.prediction->text);
      one(probe.prediction->truth);
      one(probe.prediction->prediction);
      overhead += 96;
    }
    overhead += jsonBytes(decodingJson(probe.decoding));
    std::vector<std::vector<std::size_t>> groups(static_cast<std::size_t>(group_count));
    for (const HandoutAttention& a : probe.attention) {
      strings(a.row_labels);
      strings(a.col_labels);
      strings(a.row_predictions);
      overhead += 160;
      const auto g = static_cast<std::size_t>(a.group);
      if (g >= groups.size()) continue;
      const std::size_t layer_bytes =
          static_cast<std::size_t>(a.heads) * a.rows * a.cols + std::size_t{4} * a.heads;
      // base64: 4 characters per 3 bytes, and a few for the layer's index
      groups[g].assign(static_cast<std::size_t>(a.layers), (layer_bytes * 4 + 2) / 3 + 4);
    }
    cost.probe_overhead.push_back(overhead);
    cost.layer_bytes.push_back(std::move(groups));
  }
  return cost;
}

std::string HandoutPacker::document(const HandoutData& data, const std::vector<json>& frames,
                                    const HandoutSelection& selection,
                                    const std::vector<std::string>& left_out, double max_mb,
                                    const std::string& theme) const {
  // The order of resources/handout/handout.schema.json, which says what each section holds.
  json doc;
  doc["format"] = kHandoutFormat;
  doc["run"] = runSection(data);
  doc["settings"] = settingsSection(data.settings);
  doc["key_settings"] = settingsSection(data.key_settings);
  doc["curves"] = curvesSection(data.series);
  doc["test"] = data.test ? testSection(*data.test) : json(nullptr);
  doc["notes"] = notesSection(data.notes);
  doc["probe_samples"] = probeSamplesSection(data.probe_samples, selection.probes);
  doc["groups"] = groupsSection(data.groups, selection);
  doc["colors"] = {
      {"viridis", b64(viridisLevels())}, {"masked_light", "#b3b3b3"}, {"masked_dark", "#6e6e6e"}};
  doc["labels"] = label_lists_;
  doc["texts"] = texts_;
  doc["images"] = images_;
  doc["encodings"] = encodings_;
  doc["frames"] = frames;
  doc["head_stats"] = data.head_stats.empty() ? json(nullptr) : headStatsSection(data.head_stats);
  doc["ablation"] = data.ablation ? ablationSection(*data.ablation) : json(nullptr);
  doc["calibration"] = data.calibration ? calibrationSection(*data.calibration) : json(nullptr);
  doc["left_out"] = left_out;
  doc["max_mb"] = max_mb;
  doc["theme"] = theme;
  doc["stored_frames"] = data.frames.size();
  if (!lesson_.is_null()) doc["lesson"] = lesson_;
  if (!computations_.is_null()) doc["computations"] = computations_;
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::uint8_t> HandoutPacker::viridisLevels() {
  // widgets/common/plot_theme.cpp, PlotTheme::sequentialGradient: stop k at k / 10.0. The levels
  // are computed in QCustomPlot's own arithmetic (QCPColorGradient::updateColorBuffer: level i at
  // i · (1 / 255), between the first stop at or past it and the one before, each channel cut to
  // an integer), so that no level differs by a unit (tests/handout checks every one).
  constexpr std::array<std::uint32_t, 11> kStops{0x440154, 0x482475, 0x414487, 0x355f8d,
                                                 0x2a788e, 0x21918c, 0x22a884, 0x44bf70,
                                                 0x7ad151, 0xbddf26, 0xfde725};
  std::vector<std::uint8_t> levels;
  levels.reserve(256 * 3);
  const double index_to_position = 1.0 / 255;
  for (int i = 0; i < 256; ++i) {
    const double position = i * index_to_position;
    std::size_t high = 0;
    while (high < kStops.size() && static_cast<double>(high) / 10.0 < position) ++high;
    for (int shift : {16, 8, 0}) {
      const auto channel = [shift](std::uint32_t rgb) {
        return static_cast<double>((rgb >> shift) & 0xff);
      };
      double value = 0;
      if (high == 0) {
        value = channel(kStops.front());
      } else if (high == kStops.size()) {
        value = channel(kStops.back());
      } else {
        const double low_key = static_cast<double>(high - 1) / 10.0;
        const double t = (position - low_key) / (static_cast<double>(high) / 10.0 - low_key);
        value = (1 - t) * channel(kStops[high - 1]) + t * channel(kStops[high]);
      }
      levels.push_back(static_cast<std::uint8_t>(static_cast<int>(value)));
    }
  }
  return levels;
}

}  // namespace ascope
