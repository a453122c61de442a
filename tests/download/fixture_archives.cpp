#include "tests/download/fixture_archives.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
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

/// A 512-byte ustar header; `size` is the data that follows it.
std::string ustarHeader(const std::string& path, char type, const std::string& link,
                        std::size_t size) {
  std::string block(512, '\0');
  const auto put = [&](std::size_t at, std::size_t width, const std::string& text) {
    block.replace(at, std::min(width, text.size()), text.substr(0, width));
  };
  const auto octal = [&](std::size_t at, std::size_t width, unsigned long long value) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%0*llo", static_cast<int>(width - 1), value);
    put(at, width - 1, digits);
  };
  put(0, 100, path);
  octal(100, 8, type == '5' ? 0755 : 0644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, size);
  octal(136, 12, 1700000000);
  block[156] = type;
  put(157, 100, link);
  put(257, 6, std::string("ustar\0", 6));
  put(263, 2, "00");
  put(148, 8, "        ");  // the checksum counts its own field as spaces
  unsigned sum = 0;
  for (const char c : block) sum += static_cast<unsigned char>(c);
  char checksum[8];
  std::snprintf(checksum, sizeof checksum, "%06o", sum);
  put(148, 7, std::string(checksum, 7));  // six digits, NUL, and the space left there
  return block;
}

void appendPadded(std::string& out, const std::string& data) {
  out += data;
  out.append((512 - data.size() % 512) % 512, '\0');
}

}  // namespace

std::string makeRawTar(const std::vector<TarMember>& members) {
  std::string out;
  for (const TarMember& member : members) {
    // "NN comment=fixture\n", NN counting the whole record, itself included.
    const std::string body = " comment=fixture\n";
    const std::string record = std::to_string(body.size() + 2) + body;
    out += ustarHeader("PaxHeader/" + member.path.substr(0, 80), 'x', "", record.size());
    appendPadded(out, record);
    out += ustarHeader(member.path, member.type, member.link, member.content.size());
    appendPadded(out, member.content);
  }
  out.append(1024, '\0');
  return out;
}

std::string gzip(const std::string& bytes) {
  std::string out;
  const std::unique_ptr<archive, int (*)(archive*)> writer(archive_write_new(),
                                                           &archive_write_free);
  archive* a = writer.get();
  check(archive_write_add_filter_gzip(a), a);
  check(archive_write_set_format_raw(a), a);
  check(archive_write_set_bytes_in_last_block(a, 1), a);
  check(archive_write_open(a, &out, nullptr, &appendToString, nullptr), a);
  const std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(),
                                                                       &archive_entry_free);
  archive_entry_set_pathname(entry.get(), "data");
  archive_entry_set_filetype(entry.get(), AE_IFREG);
  archive_entry_set_size(entry.get(), static_cast<la_int64_t>(bytes.size()));
  check(archive_write_header(a, entry.get()), a);
  if (!bytes.empty() && archive_write_data(a, bytes.data(), bytes.size()) < 0) {
    check(ARCHIVE_FATAL, a);
  }
  check(archive_write_close(a), a);
  return out;
}

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
