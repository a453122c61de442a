#include "engine/run/metrics_csv.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>

#include "engine/core/atomic_file.h"
#include "engine/data/regular_file.h"
#include "engine/data/text_lines.h"

namespace ascope {
namespace {

constexpr std::size_t kMaxRowBytes = 384;

constexpr const char* kHeader =
    "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match";

std::string optionalField(const std::optional<double>& v) {
  if (!v) return "";
  std::ostringstream s;
  s.precision(6);
  s << *v;
  return s.str();
}

}  // namespace

Expected<MetricsCsvWriter> MetricsCsvWriter::open(const std::string& path, bool resume,
                                                  int64_t keep_up_to_step) {
  std::string kept = std::string(kHeader) + "\n";
  std::error_code ec;
  if (resume && std::filesystem::exists(path, ec)) {
    // A FIFO or folder in its place is refused here rather than blocking or being replaced.
    Expected<std::string> text = readRegularFile(path, kMaxMetricsCsvBytes);
    if (!text.ok()) return Error{text.error()};
    const std::vector<std::string_view> lines = splitLines(*text);
    for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
      // Torn last lines from the interruption and other unparsable rows are dropped.
      const std::optional<MetricsRow> row = parseMetricsRow(lines[i]);
      if (row && row->step <= keep_up_to_step) kept.append(lines[i]).push_back('\n');
    }
  }
  if (Status s = writeFileAtomically(path, kept); !s.ok()) return Error{s.error()};
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open for appending: " + std::strerror(errno)};
  return MetricsCsvWriter(fd, path);
}

MetricsCsvWriter::MetricsCsvWriter(MetricsCsvWriter&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)), failing_(other.failing_) {
  other.fd_ = -1;
}

MetricsCsvWriter::~MetricsCsvWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status MetricsCsvWriter::append(const StepMetrics& m) {
  char row[kMaxRowBytes];
  const int length = std::snprintf(row, sizeof row, "%lld,%d,train,%.6g,%.6g,%.6g,%.6g,,,,\n",
                                   static_cast<long long>(m.step), m.epoch, m.loss, m.accuracy,
                                   m.lr, m.samples_per_s);
  return writeRow(row, length);
}

Status MetricsCsvWriter::append(const EpochSummary& e, double lr) {
  char row[kMaxRowBytes];
  const int length =
      std::snprintf(row, sizeof row, "%lld,%d,val,%.6g,%.6g,%.6g,,%s,%s,%s,%s\n",
                    static_cast<long long>(e.step), e.epoch, e.val_loss, e.val_accuracy, lr,
                    optionalField(e.bleu).c_str(), optionalField(e.cer).c_str(),
                    optionalField(e.wer).c_str(), optionalField(e.exact_match).c_str());
  return writeRow(row, length);
}

Status MetricsCsvWriter::writeRow(const char* row, int length) {
  int error = EOVERFLOW;  // snprintf cut the row: cannot happen with %.6g fields; refused
  if (length >= 0 && static_cast<std::size_t>(length) < kMaxRowBytes) {
    // After a short write (a full disk) the file ends in a torn row: the next row starts on a
    // line of its own, so that the reader skips only the torn one.
    std::string line = torn_ ? "\n" : "";
    line.append(row, static_cast<std::size_t>(length));
    const ssize_t written = ::write(fd_, line.data(), line.size());
    if (written == static_cast<ssize_t>(line.size())) {
      failing_ = torn_ = false;
      return {};
    }
    error = written < 0 ? errno : ENOSPC;
    if (written > 0) torn_ = true;
  }
  if (failing_) return {};
  failing_ = true;
  return Error{path_ + ": cannot append the metrics (" + std::strerror(error) +
               "); training goes on, the rows until there is room again are lost"};
}

}  // namespace ascope
