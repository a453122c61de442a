#include "engine/download/archive_extractor.h"

#include <archive.h>
#include <archive_entry.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>

namespace ascope {
namespace {

using ArchiveReader = std::unique_ptr<archive, int (*)(archive*)>;

std::string messageOf(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown libarchive error";
}

/// Copies the data of the current entry from `in` to `out`.
Status copyEntryData(archive* in, archive* out, const std::string& where,
                     const std::atomic<bool>* cancel) {
  for (;;) {
    if (cancel != nullptr && cancel->load()) return Error{where + ": cancelled"};
    const void* block = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    const int read = archive_read_data_block(in, &block, &size, &offset);
    if (read == ARCHIVE_EOF) return {};
    if (read < ARCHIVE_WARN) return Error{where + ": damaged archive: " + messageOf(in)};
    if (archive_write_data_block(out, block, size, offset) < ARCHIVE_WARN) {
      return Error{where + ": cannot write: " + messageOf(out)};
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
  // Entry names are checked above all else (isSafeEntryPath), then prefixed with the absolute
  // target folder, so libarchive's own absolute-path guard cannot be used; its ".." and symlink
  // guards still apply, on a normalised prefix.
  archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  std::error_code ec;
  std::string root = std::filesystem::absolute(folder, ec).lexically_normal().string();
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
      return Error{archive_path + ": unsafe entry \"" + name + "\" points outside the folder"};
    }
    const auto type = archive_entry_filetype(entry);
    if (type != AE_IFREG && type != AE_IFDIR) {
      ++skipped;
      continue;
    }
    archive_entry_set_pathname(entry, (root + "/" + name).c_str());
    archive_entry_set_perm(entry, type == AE_IFDIR ? 0755 : 0644);
    if (archive_write_header(out.get(), entry) < ARCHIVE_WARN) {
      return Error{archive_path + ": cannot extract \"" + name + "\": " + messageOf(out.get())};
    }
    if (type == AE_IFREG) {
      if (Status copied = copyEntryData(in.get(), out.get(), archive_path, cancel); !copied) {
        return copied;
      }
      ++files;
    }
    if (archive_write_finish_entry(out.get()) < ARCHIVE_WARN) {
      return Error{archive_path + ": cannot finish \"" + name + "\": " + messageOf(out.get())};
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
