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

/// A .zip with Books.en-it.en and Books.en-it.it of `pairs` lines each at its top level, like
/// OPUS's moses downloads.
std::string makeMosesZip(std::size_t pairs);

}  // namespace ascope::testing
