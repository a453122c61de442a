#include "engine/download/archive_extractor.h"

#include <archive.h>
#include <archive_entry.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>

namespace ascope {
namespace {

namespace fs = std::filesystem;
using ArchiveReader = std::unique_ptr<archive, int (*)(archive*)>;

std::string messageOf(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown libarchive error";
}

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

/// What went wrong on disk while `doing` (e.g. "cannot write") the entry `name`: a full disk or
/// quota reads "disk full while extracting NAME: No space left on device"; anything else gives
/// libarchive's message and the system's reason.
std::string diskError(archive* out, const std::string& doing, const std::string& name) {
  const int code = archive_errno(out);
  if (code == ENOSPC || code == EDQUOT) {
    return "disk full while extracting " + quoted(name) + ": " + std::strerror(code);
  }
  std::string message = doing + " " + quoted(name) + ": " + messageOf(out);
  if (code > 0) {
    const std::string reason = std::strerror(code);
    if (message.find(reason) == std::string::npos) message += ": " + reason;
  }
  return message;
}

/// `path` in its lexically normal form when it stays inside the folder it is taken from
/// (relative, no ".." above its start); empty when it leaves it or is empty.
fs::path containedPath(const fs::path& path) {
  if (path.empty() || path.has_root_path()) return {};
  fs::path normal = path.lexically_normal();
  if (normal.empty() || *normal.begin() == "..") return {};
  return normal;
}

/// True when `path`, symbolic links resolved, is an entry of the (canonical) folder `root`.
bool resolvesInside(const std::string& root, const fs::path& path) {
  std::error_code ec;
  const std::string resolved = fs::canonical(path, ec).string();
  if (ec) return false;
  const std::string prefix = root == "/" ? root : root + "/";
  return resolved.size() > prefix.size() && resolved.compare(0, prefix.size(), prefix) == 0;
}

/// libarchive (3.6) keeps a file open when finishing it fails (when it cannot restore the size
/// the archive declared: the disk or a limit refuses it) and never closes it, so the space of the
/// removed file would stay in use until the program ends. Closes the descriptors still open on
/// `path` (Linux: found through /proc/self/fd; elsewhere nothing happens).
void closeLeftOpen(const std::string& path) {
  struct stat file {};
  if (::stat(path.c_str(), &file) != 0) return;
  std::error_code ec;
  for (fs::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string number = it->path().filename().string();
    char* rest = nullptr;
    const long fd = std::strtol(number.c_str(), &rest, 10);
    struct stat held {};
    if (rest == number.c_str() || *rest != '\0' || fd < 0) continue;
    if (::fstat(static_cast<int>(fd), &held) == 0 && held.st_dev == file.st_dev &&
        held.st_ino == file.st_ino && S_ISREG(held.st_mode)) {
      ::close(static_cast<int>(fd));
    }
  }
}

/// Copies the data of the current entry `name` from `in` to `out`. Any write that libarchive
/// does not call complete is an error: it returns ARCHIVE_WARN when write() fails (a full disk)
/// and would then pad the file to its full size with zeros.
Status copyEntryData(archive* in, archive* out, const std::string& archive_path,
                     const std::string& name, const std::atomic<bool>* cancel) {
  for (;;) {
    if (cancel != nullptr && cancel->load()) return Error{archive_path + ": cancelled"};
    const void* block = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    const int read = archive_read_data_block(in, &block, &size, &offset);
    if (read == ARCHIVE_EOF) return {};
    if (read < ARCHIVE_WARN) return Error{archive_path + ": damaged archive: " + messageOf(in)};
    // libarchive 3 answers ARCHIVE_OK, libarchive 4 the size written; both are never negative.
    if (archive_write_data_block(out, block, size, offset) < ARCHIVE_OK) {
      return Error{archive_path + ": " + diskError(out, "cannot write", name)};
    }
  }
}

}  // namespace

bool ArchiveExtractor::isSafeEntryPath(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  std::istringstream parts(path);
  for (std::string part; std::getline(parts, part, '/');) {
    if (part == "..") return false;
  }
  return true;
}

Status ArchiveExtractor::extract(const std::string& archive_path, const std::string& archive_type,
                                 const std::string& folder, const std::atomic<bool>* cancel) {
  // Opened first (and closed last) so that a file that cannot be read is told apart from bad data,
  // which libarchive may already find while it reads ahead on open.
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(archive_path.c_str(), "rb"),
                                                             &std::fclose);
  if (!file) return Error{archive_path + ": cannot open: " + std::strerror(errno)};
  const ArchiveReader in(archive_read_new(), &archive_read_free);
  const ArchiveReader out(archive_write_disk_new(), &archive_write_free);
  if (!in || !out) return Error{archive_path + ": cannot start libarchive"};
  if (archive_type == "tar.gz") {
    archive_read_support_filter_gzip(in.get());
    archive_read_support_format_tar(in.get());
  } else if (archive_type == "zip") {
    archive_read_support_format_zip(in.get());
  } else {
    return Error{archive_path + ": unknown archive type \"" + archive_type + "\""};
  }
  // Entry names and link targets are checked above all else, then prefixed with the absolute
  // target folder, so libarchive's own absolute-path guard (ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS)
  // cannot be used; its ".." and symlink guards still apply, on a prefix without symlinks.
  archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  // Resolved, so that a folder reached through a symlink (a data folder on another disk) passes
  // libarchive's symlink guard, and link targets can be compared with it.
  std::error_code ec;
  std::string root = fs::weakly_canonical(fs::absolute(folder, ec), ec).string();
  if (ec) return Error{folder + ": " + ec.message()};
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  if (archive_read_open_FILE(in.get(), file.get()) != ARCHIVE_OK) {
    return Error{archive_path + ": damaged archive: " + messageOf(in.get())};
  }

  int files = 0, skipped = 0;
  for (;;) {
    if (cancel != nullptr && cancel->load()) return Error{archive_path + ": cancelled"};
    archive_entry* entry = nullptr;
    const int header = archive_read_next_header(in.get(), &entry);
    if (header == ARCHIVE_EOF) break;
    if (header < ARCHIVE_WARN) {
      return Error{archive_path + ": damaged archive: " + messageOf(in.get())};
    }
    const char* raw_name = archive_entry_pathname(entry);
    const std::string name = raw_name != nullptr ? raw_name : "";
    if (!isSafeEntryPath(name)) {
      return Error{archive_path + ": unsafe entry " + quoted(name) + " points outside the folder"};
    }
    auto type = archive_entry_filetype(entry);
    // "a/./b/" is written as "a/b"; "." and "./" name the folder itself, which a folder entry
    // leaves as it is and any other entry would replace (libarchive removes an empty folder in the
    // way of a file).
    std::string relative = containedPath(name).string();
    while (relative.size() > 1 && relative.back() == '/') relative.pop_back();
    if (relative == ".") {
      if (type == AE_IFDIR && archive_entry_hardlink(entry) == nullptr) continue;
      return Error{archive_path + ": unsafe entry " + quoted(name) + " would replace the folder"};
    }
    if (const char* raw_link = archive_entry_hardlink(entry); raw_link != nullptr) {
      // A hard link names another entry of the archive, from its top. libarchive links to the
      // target as given (relative to the working directory, or absolute) and writes the link's
      // data, if any, through it: only a file already extracted here may be its target.
      const std::string link = raw_link;
      const fs::path inside = containedPath(link);
      if (!isSafeEntryPath(link) || inside.empty()) {
        return Error{archive_path + ": unsafe hard link " + quoted(name) + " -> " + quoted(link) +
                     " points outside the folder"};
      }
      const fs::path target = fs::path(root) / inside;
      struct stat status {};
      if (::lstat(target.c_str(), &status) != 0 || !S_ISREG(status.st_mode) ||
          !resolvesInside(root, target)) {
        return Error{archive_path + ": hard link " + quoted(name) + " -> " + quoted(link) +
                     " names no file extracted before it"};
      }
      archive_entry_set_hardlink(entry, target.c_str());
      type = AE_IFREG;
      archive_entry_set_filetype(entry, type);
    } else if (type == AE_IFLNK) {
      // Never created, but one that leads outside marks a hostile archive: refuse it whole.
      const char* raw_target = archive_entry_symlink(entry);
      const std::string link = raw_target != nullptr ? raw_target : "";
      if (link.empty() || containedPath(fs::path(relative).parent_path() / link).empty()) {
        return Error{archive_path + ": unsafe symbolic link " + quoted(name) + " -> " +
                     quoted(link) + " points outside the folder"};
      }
      ++skipped;
      continue;
    }
    if (type != AE_IFREG && type != AE_IFDIR) {
      ++skipped;
      continue;
    }
    const std::string path = root + "/" + relative;
    archive_entry_set_pathname(entry, path.c_str());
    archive_entry_set_perm(entry, type == AE_IFDIR ? 0755 : 0644);
    if (archive_write_header(out.get(), entry) < ARCHIVE_WARN) {
      return Error{archive_path + ": " + diskError(out.get(), "cannot extract", name)};
    }
    if (type == AE_IFREG) {
      Status copied = copyEntryData(in.get(), out.get(), archive_path, name, cancel);
      if (copied && archive_write_finish_entry(out.get()) < ARCHIVE_WARN) {
        copied = Error{archive_path + ": " + diskError(out.get(), "cannot finish", name)};
      }
      if (!copied) {
        // No file cut short (or padded with zeros) is left behind, nor held open.
        archive_write_finish_entry(out.get());
        closeLeftOpen(path);
        fs::remove(path, ec);
        return copied;
      }
      ++files;
    } else if (archive_write_finish_entry(out.get()) < ARCHIVE_WARN) {
      return Error{archive_path + ": " + diskError(out.get(), "cannot finish", name)};
    }
  }
  if (archive_write_close(out.get()) < ARCHIVE_WARN) {
    return Error{archive_path + ": cannot finish extracting: " + messageOf(out.get())};
  }
  if (files == 0) return Error{archive_path + ": the archive holds no files"};
  if (skipped > 0) spdlog::info("{}: skipped {} links or special files", archive_path, skipped);
  return {};
}

}  // namespace ascope
