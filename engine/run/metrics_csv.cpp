#include "engine/run/metrics_csv.h"

#include <fstream>
#include <sstream>

#include "engine/core/atomic_file.h"

namespace ascope {
namespace {

constexpr const char* kHeader =
    "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match";

std::string optionalField(const std::optional<double>& v) {
  if (!v) return "";
  std::ostringstream s;
  s.precision(6);
  s << *v;
  return s.str();
}

std::vector<std::string> splitCommas(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

}  // namespace

Expected<MetricsCsvWriter> MetricsCsvWriter::open(const std::string& path, bool resume,
                                                  int64_t keep_up_to_step) {
  std::string kept = std::string(kHeader) + "\n";
  if (resume) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      const auto comma = line.find(',');
      try {
        if (comma != std::string::npos && std::stoll(line.substr(0, comma)) <= keep_up_to_step) {
          kept += line + "\n";
        }
      } catch (const std::exception&) {
        // a torn last line from the interruption: dropped
      }
    }
  }
  if (Status s = writeFileAtomically(path, kept); !s.ok()) return Error{s.error()};
  std::FILE* file = std::fopen(path.c_str(), "a");
  if (file == nullptr) return Error{path + ": cannot open for appending"};
  return MetricsCsvWriter(file);
}

MetricsCsvWriter::MetricsCsvWriter(MetricsCsvWriter&& other) noexcept : file_(other.file_) {
  other.file_ = nullptr;
}

MetricsCsvWriter::~MetricsCsvWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void MetricsCsvWriter::append(const StepMetrics& m) {
  std::fprintf(file_, "%lld,%d,train,%.6g,%.6g,%.6g,%.6g,,,,\n", static_cast<long long>(m.step),
               m.epoch, m.loss, m.accuracy, m.lr, m.samples_per_s);
  std::fflush(file_);
}

void MetricsCsvWriter::append(const EpochSummary& e, double lr) {
  std::fprintf(file_, "%lld,%d,val,%.6g,%.6g,%.6g,,%s,%s,%s,%s\n", static_cast<long long>(e.step),
               e.epoch, e.val_loss, e.val_accuracy, lr, optionalField(e.bleu).c_str(),
               optionalField(e.cer).c_str(), optionalField(e.wer).c_str(),
               optionalField(e.exact_match).c_str());
  std::fflush(file_);
}

Expected<std::vector<MetricsRow>> readMetricsCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{path + ": cannot open"};
  std::string line;
  if (!std::getline(in, line) ||
      line.rfind("step,epoch,split,loss,accuracy,lr,samples_per_s", 0) != 0) {
    return Error{path + ": line 1 is not the metrics header"};
  }
  std::vector<MetricsRow> rows;
  auto number = [](const std::string& f) -> std::optional<double> {
    if (f.empty()) return std::nullopt;
    return std::stod(f);
  };
  for (int line_number = 2; std::getline(in, line); ++line_number) {
    if (line.empty()) continue;
    const auto f = splitCommas(line);
    try {
      if (f.size() < 7 || (f[2] != "train" && f[2] != "val"))
        throw std::invalid_argument("columns");
      MetricsRow r;
      r.step = std::stoll(f[0]);
      r.epoch = std::stoi(f[1]);
      r.split = f[2];
      r.loss = std::stod(f[3]);
      r.accuracy = std::stod(f[4]);
      r.lr = std::stod(f[5]);
      r.samples_per_s = f[6].empty() ? 0 : std::stod(f[6]);
      if (f.size() >= 11) {
        r.bleu = number(f[7]), r.cer = number(f[8]), r.wer = number(f[9]);
        r.exact_match = number(f[10]);
      }
      rows.push_back(r);
    } catch (const std::exception&) {
      return Error{path + ":" + std::to_string(line_number) + ": malformed row \"" + line + "\""};
    }
  }
  return rows;
}

}  // namespace ascope
