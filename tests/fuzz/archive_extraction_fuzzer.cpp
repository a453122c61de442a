// ArchiveExtractor on arbitrary bytes, read as a .zip when they start with "PK" and as a .tar.gz
// (a plain tar too) otherwise, in a fresh sandbox per input that is removed afterwards:
//   <sandbox>/archive     the input
//   <sandbox>/victim      a file no extraction may touch (what hostile links aim at: "../victim")
//   <sandbox>/cwd/victim  the same in the working directory meanwhile (a hard link to "victim" used
//                         to be taken relative to it)
//   <sandbox>/out/        the folder extracted into
// Whatever the bytes, nothing outside the folder extracted into may change: the sandbox holds
// these entries and nothing else, the victims and archive keep their bytes and their single link,
// cwd/ holds nothing else, and the folder holds only folders and regular files (never a symbolic
// link). An error names the archive.
//
// TMPDIR picks where the sandboxes go (/dev/shm is fastest). Files are limited to 64 MiB
// (RLIMIT_FSIZE, SIGXFSZ ignored) so that a small bomb or a huge declared size costs little: the
// extractor must then report the failed write, as on a full disk. The working directory is the
// sandbox's while an input runs: give -artifact_prefix an absolute folder, or a crash input is
// written there.
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "engine/download/archive_extractor.h"

namespace {

namespace fs = std::filesystem;

const char kVictimBytes[] = "precious\n";

void check(bool condition, const std::string& what) {
  if (!condition) {
    std::fprintf(stderr, "archive_extraction_fuzzer: %s\n", what.c_str());
    std::abort();
  }
}

/// The per-process folder that holds the sandbox of the current input.
fs::path& base() {
  static fs::path folder;
  return folder;
}

/// The working directory libFuzzer started in (relative corpus paths are read from it).
fs::path& startFolder() {
  static fs::path folder;
  return folder;
}

void writeFile(const fs::path& path, const char* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  check(static_cast<bool>(out), "cannot write a sandbox file");
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// `path` is a regular file (not a link) with one name and exactly `bytes`.
void checkUntouched(const fs::path& path, const std::string& bytes) {
  struct stat status {};
  check(::lstat(path.c_str(), &status) == 0, "a file outside the folder was removed");
  check(S_ISREG(status.st_mode), "a file outside the folder was replaced");
  check(status.st_nlink == 1, "a file outside the folder got a hard link");
  check(static_cast<std::size_t>(status.st_size) == bytes.size() && readFile(path) == bytes,
        "a file outside the folder was written");
}

void checkSandbox(const fs::path& sandbox, const std::set<std::string>& expected,
                  const std::string& archive_bytes) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(sandbox)) {
    names.insert(entry.path().filename().string());
  }
  check(names == expected, "something was written next to the folder");
  checkUntouched(sandbox / "victim", kVictimBytes);
  checkUntouched(sandbox / "archive", archive_bytes);
  checkUntouched(sandbox / "cwd" / "victim", kVictimBytes);
  check(std::distance(fs::directory_iterator(sandbox / "cwd"), fs::directory_iterator()) == 1,
        "something was written to the working directory");
}

/// Which of the 32 descriptors from the lowest free one up are open: a descriptor left open by an
/// extraction takes one of them (descriptors are handed out lowest first). Cheaper than listing
/// /proc/self/fd.
std::uint32_t openDescriptors() {
  const int lowest = ::dup(0);
  ::close(lowest);
  std::uint32_t open = 0;
  for (int i = 0; i < 32; ++i) {
    if (::fcntl(lowest + i, F_GETFD) != -1) open |= std::uint32_t{1} << i;
  }
  return open;
}

void checkExtracted(const fs::path& folder) {
  struct stat status {};
  check(::lstat(folder.c_str(), &status) == 0 && S_ISDIR(status.st_mode),
        "the folder extracted into was replaced");
  for (auto it = fs::recursive_directory_iterator(folder); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::file_status type = it->symlink_status();
    check(fs::is_regular_file(type) || fs::is_directory(type),
          "a link or a special file was extracted");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  std::string pattern = (fs::temp_directory_path() / "archive_extraction_fuzzer.XXXXXX").string();
  check(::mkdtemp(pattern.data()) != nullptr, "cannot create the sandbox folder");
  base() = pattern;
  startFolder() = fs::current_path();
  rlimit limit{};
  ::getrlimit(RLIMIT_FSIZE, &limit);
  limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, rlim_t{64} << 20);
  ::setrlimit(RLIMIT_FSIZE, &limit);
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(base(), ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Each time: libFuzzer installs its own handler, which ends the run, after this initialisation.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const fs::path sandbox = base() / "sandbox";
  std::error_code ec;
  fs::create_directory(sandbox, ec);
  check(!ec, "cannot create the sandbox");
  fs::create_directory(sandbox / "cwd", ec);
  writeFile(sandbox / "victim", kVictimBytes, sizeof kVictimBytes - 1);
  writeFile(sandbox / "cwd" / "victim", kVictimBytes, sizeof kVictimBytes - 1);
  const fs::path archive = sandbox / "archive";
  writeFile(archive, bytes.data(), bytes.size());

  // Read as the extractor is asked to: libarchive's zip reader takes nothing but "PK" openings,
  // its tar.gz reader everything else (gzip or a plain tar), so each input gets the one that can.
  const std::string type = size >= 2 && data[0] == 'P' && data[1] == 'K' ? "zip" : "tar.gz";
  const fs::path out = sandbox / "out";
  fs::create_directory(out, ec);
  check(!ec, "cannot create the folder to extract into");
  const std::uint32_t open_before = openDescriptors();
  fs::current_path(sandbox / "cwd");
  const ascope::Status status =
      ascope::ArchiveExtractor::extract(archive.string(), type, out.string(), nullptr);
  fs::current_path(startFolder());
  check(openDescriptors() == open_before, "a file descriptor was left open");
  if (!status.ok()) {
    check(status.error().rfind(archive.string() + ": ", 0) == 0, "an error without the archive");
  }
  checkSandbox(sandbox, {"archive", "victim", "cwd", "out"}, bytes);
  checkExtracted(out);
  fs::remove_all(sandbox, ec);
  check(!ec, "cannot remove the sandbox: " + ec.message());
  return 0;
}
