#pragma once
// Archives the downloader tests serve, written in memory with libarchive: a .tar.gz with a tiny
// but valid cifar-10-batches-bin/ (real record format) and a .zip with a tiny moses pair.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ascope::testing {

/// One archive member: a path and its bytes; a path ending in '/' is a folder.
using ArchiveMember = std::pair<std::string, std::string>;

enum class ArchiveKind { kTarGz, kZip };

/// Builds an archive of `kind` holding `members` in order.
std::string makeArchive(ArchiveKind kind, const std::vector<ArchiveMember>& members);

/// A .tar.gz with cifar-10-batches-bin/: data_batch_1..5.bin and test_batch.bin of
/// `records_per_batch` records each (1 label byte + 3072 seeded pixel bytes) and batches.meta.txt.
std::string makeCifarTarGz(std::size_t records_per_batch);

/// One member of a tar written byte by byte, for what libarchive's writer will not produce (a hard
/// link that carries data). `type` is the ustar type flag: '0' file, '5' folder, '1' hard link,
/// '2' symbolic link.
struct TarMember {
  std::string path;
  char type = '0';
  /// The link target of a '1' or '2' member.
  std::string link;
  /// The member's data; a hard link with data is what pax interchange allows.
  std::string content;
};

/// A tar of `members` in order, each behind a pax extended header, so that readers take the pax
/// interchange format and obey a hard link's size.
std::string makeRawTar(const std::vector<TarMember>& members);

/// `bytes` compressed with gzip (.tar.gz from makeRawTar).
std::string gzip(const std::string& bytes);

/// A .zip with Books.en-it.en and Books.en-it.it of `pairs` lines each at its top level, like
/// OPUS's moses downloads.
std::string makeMosesZip(std::size_t pairs);

}  // namespace ascope::testing
