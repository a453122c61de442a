// The HTTP answers download-model reads, from arbitrary bytes: a chain of HEAD answers (status
// lines, headers, redirects, sizes, ETags, the hub's error text) through resolveHubFileMetadata,
// then one GET answer (status, Content-Range, Content-Length, a body in chunks) through the
// PartFileWriter that puts it into a part file already holding some bytes. libcurl itself stays
// out (it has fuzzers of its own): what is fuzzed is what this program makes of what a server
// sends. Invariants besides "no crash":
//   metadata  every text field is printable (server_text.h), a size is -1 or a whole number, a
//             SHA-256 is 64 lowercase hex digits, the download address is a plain http(s) URL, a
//             file elsewhere than the hub is an LFS file; an error names the URL asked and holds
//             no control character; the redirects followed stay within kMaxSameHostRedirects.
//   body      nothing past the most allowed reaches the file, a resumed (206) answer keeps the
//             bytes before its offset, the file holds exactly what was accepted, a refused answer
//             leaves the file as it was.
#include <fuzzer/FuzzedDataProvider.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/download/models/hub_file_metadata.h"
#include "engine/download/part_file_writer.h"
#include "engine/download/server_text.h"
#include "engine/download/sha256.h"
#include "fuzz_check.h"

namespace {

using ascope::fuzz::check;

constexpr const char* kAsked = "http://hub/acme/model/resolve/main/model.safetensors";
constexpr int kMaxAnswers = 8;

bool hasControlCharacter(const std::string& text) {
  for (const unsigned char c : text) {
    if (c < 0x20 || c == 0x7F) return true;
  }
  return false;
}

bool isPlainHttpUrl(const std::string& url) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) return false;
  for (const unsigned char c : url) {
    if (c <= 0x20 || c >= 0x7F) return false;
  }
  return true;
}

/// One HEAD answer: lines up to an empty one, as a server would send them.
ascope::HubAnswer answerFrom(FuzzedDataProvider& input) {
  ascope::HubAnswer answer;
  answer.addHeaderLine("HTTP/1.1 " + std::to_string(input.ConsumeIntegralInRange(100, 599)) + " X");
  for (int lines = input.ConsumeIntegralInRange(0, 8); lines > 0; --lines) {
    answer.addHeaderLine(input.ConsumeRandomLengthString(200) + "\r\n");
  }
  // libcurl makes the Location absolute; a "/path" one stays on the host asked.
  const std::string location = answer.header("location");
  if (!location.empty() && location[0] == '/' && location.rfind("//", 0) != 0) {
    answer.redirect_url = "http://hub" + location;
  } else if (!location.empty() && input.ConsumeBool()) {
    answer.redirect_url = location;
  }
  return answer;
}

void fuzzMetadata(FuzzedDataProvider& input) {
  std::vector<ascope::HubAnswer> answers;
  for (int n = input.ConsumeIntegralInRange(1, kMaxAnswers); n > 0; --n) {
    answers.push_back(answerFrom(input));
  }
  std::size_t asked = 0;
  const auto metadata = ascope::resolveHubFileMetadata(
      kAsked, [&](const std::string& url) -> ascope::Expected<ascope::HubAnswer> {
        check(isPlainHttpUrl(url));
        if (asked == answers.size()) return ascope::Error{url + ": no more answers"};
        return answers[asked++];
      });
  check(asked <= static_cast<std::size_t>(ascope::kMaxSameHostRedirects) + 1);
  if (!metadata.ok()) {
    check(metadata.error().rfind(kAsked, 0) == 0 || metadata.error().rfind("http://hub/", 0) == 0);
    check(!hasControlCharacter(metadata.error()));
    ascope::fuzz::checkUtf8(metadata.error());
    return;
  }
  for (const std::string* text :
       {&metadata->commit, &metadata->error_code, &metadata->error_message, &metadata->etag}) {
    check(ascope::isPrintableServerText(*text));
  }
  check(metadata->size >= -1);
  check(metadata->sha256.empty() || ascope::Sha256::isHexDigest(metadata->sha256));
  for (const char c : metadata->sha256) check(c < 'A' || c > 'F');
  check(isPlainHttpUrl(metadata->download_url));
  check(metadata->download_on_endpoint || metadata->lfs);
  check(metadata->exists() ==
        ((metadata->status >= 200 && metadata->status < 300) || !metadata->download_on_endpoint));
}

std::string contentsOf(int fd) {
  std::string text;
  char buffer[4096];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, at);
    if (n <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
    at += n;
  }
}

void fuzzBody(FuzzedDataProvider& input) {
  const std::string before = input.ConsumeRandomLengthString(64);
  const std::int64_t max_bytes =
      input.ConsumeBool() ? -1 : input.ConsumeIntegralInRange<std::int64_t>(0, 4096);
  const int fd = ::memfd_create("hub_answer_fuzzer.part", MFD_CLOEXEC);
  check(fd >= 0);
  check(::write(fd, before.data(), before.size()) == static_cast<ssize_t>(before.size()));
  const auto offset = static_cast<std::int64_t>(before.size());

  ascope::PartFileWriter writer(fd, offset, max_bytes, input.ConsumeIntegral<std::uint16_t>());
  const long status = input.ConsumeBool() ? 206 : input.ConsumeBool() ? 200 : 416;
  writer.onHeaderLine("HTTP/1.1 " + std::to_string(status) + " Whatever\r\n");
  for (int lines = input.ConsumeIntegralInRange(0, 3); lines > 0; --lines) {
    writer.onHeaderLine(input.ConsumeRandomLengthString(80) + "\r\n");
  }
  const std::int64_t content_length =
      input.ConsumeBool() ? -1 : input.ConsumeIntegral<std::int64_t>() & 0x7fffffffffffffff;
  std::string accepted;
  if (writer.begin(status, content_length)) {
    check(status == 200 || status == 206);
    check(writer.error().empty());
    while (input.remaining_bytes() > 0) {
      const std::string chunk = input.ConsumeRandomLengthString(512);
      if (!writer.write(chunk.data(), chunk.size())) {
        check(!writer.error().empty());
        break;
      }
      accepted += chunk;
    }
    const std::string file = contentsOf(fd);
    const std::string kept = status == 206 ? before : std::string();
    check(file == kept + accepted);
    check(writer.written() == static_cast<std::int64_t>(accepted.size()));
    if (max_bytes >= 0)
      check(static_cast<std::int64_t>(accepted.size() + kept.size()) <= max_bytes);
  } else {
    check(contentsOf(fd) == before);
    check(!writer.started());
  }
  check(!hasControlCharacter(writer.error()));
  ::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  if (input.ConsumeBool()) {
    fuzzMetadata(input);
  } else {
    fuzzBody(input);
  }
  return 0;
}
