#include "tests/download/fixture_archives.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace ascope::testing {
namespace {

constexpr std::size_t kCifarRecordBytes = 1 + 3 * 32 * 32;

la_ssize_t appendToString(archive*, void* target, const void* data, std::size_t size) {
  static_cast<std::string*>(target)->append(static_cast<const char*>(data), size);
  return static_cast<la_ssize_t>(size);
}

void check(int result, archive* a) {
  if (result < ARCHIVE_WARN) {
    std::fprintf(stderr, "fixture archive: %s\n", archive_error_string(a));
    std::abort();
  }
}

}  // namespace

std::string makeArchive(ArchiveKind kind, const std::vector<ArchiveMember>& members) {
  std::string bytes;
  const std::unique_ptr<archive, int (*)(archive*)> writer(archive_write_new(),
                                                           &archive_write_free);
  archive* a = writer.get();
  if (kind == ArchiveKind::kTarGz) {
    check(archive_write_add_filter_gzip(a), a);
    check(archive_write_set_format_pax_restricted(a), a);
  } else {
    check(archive_write_set_format_zip(a), a);
  }
  check(archive_write_set_bytes_in_last_block(a, 1), a);
  check(archive_write_open(a, &bytes, nullptr, &appendToString, nullptr), a);
  for (const auto& [path, content] : members) {
    const std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(),
                                                                         &archive_entry_free);
    const bool folder = !path.empty() && path.back() == '/';
    archive_entry_set_pathname(entry.get(), path.c_str());
    archive_entry_set_filetype(entry.get(), folder ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(entry.get(), folder ? 0755 : 0644);
    archive_entry_set_size(entry.get(), folder ? 0 : static_cast<la_int64_t>(content.size()));
    check(archive_write_header(a, entry.get()), a);
    if (!folder && !content.empty()) {
      if (archive_write_data(a, content.data(), content.size()) < 0) check(ARCHIVE_FATAL, a);
    }
  }
  check(archive_write_close(a), a);
  return bytes;
}

std::string makeCifarTarGz(std::size_t records_per_batch) {
  std::uint32_t state = 12345;  // seeded LCG: random-looking pixels that gzip cannot shrink much
  const auto batch = [&](int first_label) {
    std::string bytes;
    bytes.reserve(records_per_batch * kCifarRecordBytes);
    for (std::size_t r = 0; r < records_per_batch; ++r) {
      bytes.push_back(static_cast<char>((first_label + r) % 10));
      for (std::size_t i = 1; i < kCifarRecordBytes; ++i) {
        state = state * 1664525u + 1013904223u;
        bytes.push_back(static_cast<char>(state >> 24));
      }
    }
    return bytes;
  };
  std::vector<ArchiveMember> members{{"cifar-10-batches-bin/", ""}};
  for (int b = 1; b <= 5; ++b) {
    members.emplace_back("cifar-10-batches-bin/data_batch_" + std::to_string(b) + ".bin", batch(b));
  }
  members.emplace_back("cifar-10-batches-bin/test_batch.bin", batch(0));
  members.emplace_back("cifar-10-batches-bin/batches.meta.txt",
                       "airplane\nautomobile\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n\n");
  members.emplace_back("cifar-10-batches-bin/readme.html", "<html></html>\n");
  return makeArchive(ArchiveKind::kTarGz, members);
}

std::string makeMosesZip(std::size_t pairs) {
  std::string english, italian;
  for (std::size_t i = 0; i < pairs; ++i) {
    english += "This is sentence number " + std::to_string(i) + ".\n";
    italian += "Questa è la frase numero " + std::to_string(i) + ".\n";
  }
  return makeArchive(ArchiveKind::kZip, {{"Books.en-it.en", english},
                                         {"Books.en-it.it", italian},
                                         {"README", "OPUS Books en-it (test fixture)\n"}});
}

}  // namespace ascope::testing
