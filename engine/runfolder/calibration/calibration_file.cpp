#include "engine/runfolder/calibration/calibration_file.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <system_error>

#include "engine/core/json_file.h"

namespace ascope {
namespace {

constexpr int kCalibrationFormat = 1;
/// Two splits of a few bins each: a larger file is not one we wrote.
constexpr std::uint64_t kMaxCalibrationBytes = std::uint64_t{64} << 10;
/// More bins than a reliability diagram can draw: refused rather than drawn.
constexpr std::size_t kMaxBins = 100;

/// Reads the fields of one JSON object, each checked against its range; the first refusal names
/// the file, the key's path and the value.
class FieldReader {
 public:
  FieldReader(const nlohmann::json& object, std::string where)
      : object_(object), where_(std::move(where)) {}

  /// A finite number in [low, high].
  Status number(const char* key, double low, double high, double& out) const {
    const auto it = object_.find(key);
    if (it == object_.end()) return Error{where_ + "\"" + key + "\" is missing"};
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < low ||
        it->get<double>() > high) {
      return Error{where_ + "\"" + key + "\" must be a number from " + std::to_string(low) +
                   " to " + std::to_string(high) + ", not " + it->dump()};
    }
    out = it->get<double>();
    return {};
  }

  /// A whole number, 0 or more.
  Status count(const char* key, std::int64_t& out) const {
    const auto it = object_.find(key);
    if (it == object_.end()) return Error{where_ + "\"" + key + "\" is missing"};
    if (!it->is_number_integer() ||
        (it->is_number_unsigned() &&
         it->get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) ||
        it->get<std::int64_t>() < 0) {
      return Error{where_ + "\"" + key + "\" must be a whole number, 0 or more, not " + it->dump()};
    }
    out = it->get<std::int64_t>();
    return {};
  }

  const nlohmann::json& object() const { return object_; }
  const std::string& where() const { return where_; }

 private:
  const nlohmann::json& object_;
  std::string where_;
};

Status readBins(const FieldReader& split, const char* key, double ece, CalibrationError& out) {
  out.ece = ece;
  const auto it = split.object().find(key);
  if (it == split.object().end() || !it->is_array() || it->size() > kMaxBins) {
    return Error{split.where() + "\"" + key + "\" must be an array of at most " +
                 std::to_string(kMaxBins) + " bins"};
  }
  for (std::size_t i = 0; i < it->size(); ++i) {
    const nlohmann::json& entry = (*it)[i];
    const std::string where = split.where() + key + "[" + std::to_string(i) + "]: ";
    if (!entry.is_object()) return Error{where + "not an object"};
    const FieldReader bin(entry, where);
    ReliabilityBin b;
    for (Status s : {bin.number("lower", 0, 1, b.lower), bin.number("upper", 0, 1, b.upper),
                     bin.count("count", b.count), bin.number("confidence", 0, 1, b.confidence),
                     bin.number("accuracy", 0, 1, b.accuracy)}) {
      if (!s.ok()) return s;
    }
    out.samples += b.count;
    out.bins.push_back(b);
  }
  return {};
}

Expected<SplitCalibration> readSplit(const nlohmann::json& object, const std::string& where) {
  if (!object.is_object()) return Error{where + "not an object"};
  const FieldReader split(object, where);
  SplitCalibration s;
  double ece_before = 0, ece_after = 0;
  const double huge = std::numeric_limits<double>::max();
  for (Status status :
       {split.count("samples", s.samples), split.number("nll_before", 0, huge, s.nll_before),
        split.number("nll_after", 0, huge, s.nll_after),
        split.number("ece_before", 0, 1, ece_before), split.number("ece_after", 0, 1, ece_after),
        readBins(split, "bins_before", ece_before, s.before),
        readBins(split, "bins_after", ece_after, s.after)}) {
    if (!status.ok()) return Error{status.error()};
  }
  return s;
}

}  // namespace

nlohmann::json reliabilityBinsJson(const CalibrationError& e) {
  nlohmann::json bins = nlohmann::json::array();
  for (const ReliabilityBin& b : e.bins) {
    bins.push_back({{"lower", b.lower},
                    {"upper", b.upper},
                    {"count", b.count},
                    {"confidence", b.confidence},
                    {"accuracy", b.accuracy}});
  }
  return bins;
}

nlohmann::json splitCalibrationJson(const SplitCalibration& s) {
  return {{"samples", s.samples},
          {"nll_before", s.nll_before},
          {"nll_after", s.nll_after},
          {"ece_before", s.before.ece},
          {"ece_after", s.after.ece},
          {"bins_before", reliabilityBinsJson(s.before)},
          {"bins_after", reliabilityBinsJson(s.after)}};
}

std::string calibrationPath(const std::string& run_dir) {
  return run_dir + "/calibration.json";
}

Expected<std::optional<RunCalibration>> readCalibration(const std::string& run_dir) {
  const std::string path = calibrationPath(run_dir);
  std::error_code ec;
  // A link in its place is there (and refused below), not absent.
  if (std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::not_found) {
    return std::optional<RunCalibration>{};
  }
  Expected<nlohmann::json> json = readJsonFile(path, {kMaxCalibrationBytes, 8}, Links::kRefuse);
  if (!json.ok()) return Error{json.error()};
  if (!json->is_object()) return Error{path + ": expected a JSON object"};
  const FieldReader top(*json, path + ": ");
  const auto format = json->find("format");
  if (format == json->end() || *format != kCalibrationFormat) {
    return Error{path + ": \"format\" must be " + std::to_string(kCalibrationFormat) + ", not " +
                 (format == json->end() ? std::string("missing") : format->dump())};
  }
  const auto method = json->find("method");
  if (method == json->end() || *method != "temperature") {
    return Error{path + ": \"method\" must be \"temperature\", not " +
                 (method == json->end() ? std::string("missing") : method->dump())};
  }
  RunCalibration c;
  if (Status s = top.number("temperature", kMinTemperature, kMaxTemperature, c.temperature);
      !s.ok()) {
    return Error{s.error()};
  }
  if (Status s = top.count("weights_step", c.weights_step); !s.ok()) return Error{s.error()};
  const auto validation = json->find("validation");
  if (validation == json->end()) return Error{path + ": \"validation\" is missing"};
  Expected<SplitCalibration> v = readSplit(*validation, path + ": validation.");
  if (!v.ok()) return Error{v.error()};
  c.validation = std::move(*v);
  if (const auto test = json->find("test"); test != json->end() && !test->is_null()) {
    Expected<SplitCalibration> t = readSplit(*test, path + ": test.");
    if (!t.ok()) return Error{t.error()};
    c.test = std::move(*t);
  }
  return std::optional<RunCalibration>{std::move(c)};
}

Status writeCalibration(const std::string& run_dir, const RunCalibration& calibration) {
  const double t = calibration.temperature;
  if (!(t >= kMinTemperature && t <= kMaxTemperature)) {
    return Error{calibrationPath(run_dir) + ": temperature " + std::to_string(t) +
                 " is outside the range a run may hold"};
  }
  nlohmann::json json = {{"format", kCalibrationFormat},
                         {"method", "temperature"},
                         {"temperature", t},
                         {"fitted_on", "validation"},
                         {"weights_step", calibration.weights_step},
                         {"validation", splitCalibrationJson(calibration.validation)}};
  json["test"] =
      calibration.test ? splitCalibrationJson(*calibration.test) : nlohmann::json(nullptr);
  return writeJsonFile(calibrationPath(run_dir), json);
}

}  // namespace ascope
