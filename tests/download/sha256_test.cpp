#include "engine/download/sha256.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

// Vectors from FIPS 180-4's examples and NIST's SHA-256 test suite.
TEST(Sha256Test, EmptyInput) {
  EXPECT_EQ(Sha256::hexOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256Test, Abc) {
  EXPECT_EQ(Sha256::hexOf("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256Test, TwoBlockMessage) {
  EXPECT_EQ(Sha256::hexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256Test, MillionAsFedInUnevenPieces) {
  Sha256 hash;
  const std::string piece(997, 'a');  // not a multiple of the 64-byte block
  std::size_t fed = 0;
  for (; fed + piece.size() <= 1000000; fed += piece.size()) hash.update(piece);
  hash.update(std::string(1000000 - fed, 'a'));
  EXPECT_EQ(hash.hexDigest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Chunk sizes 1..127 straddle the 64-byte block boundary in every alignment.
TEST(Sha256Test, ManySmallUpdatesEqualOneUpdate) {
  std::string bytes;
  for (int i = 0; i < 20000; ++i) bytes.push_back(static_cast<char>(i * 31 + 7));
  Sha256 pieces;
  std::size_t fed = 0;
  for (std::size_t step = 1; fed < bytes.size(); step = step % 127 + 1) {
    const std::size_t take = std::min(step, bytes.size() - fed);
    pieces.update(bytes.data() + fed, take);
    fed += take;
  }
  EXPECT_EQ(pieces.hexDigest(), Sha256::hexOf(bytes));
}

// The expected digest comes from coreutils' sha256sum (`head -c 1048576 /dev/zero | sha256sum`), an
// implementation independent of OpenSSL.
TEST(Sha256Test, OneMebibyteOfZeros) {
  EXPECT_EQ(Sha256::hexOf(std::string(1 << 20, '\0')),
            "30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58");
}

TEST(Sha256Test, FileMatchesInMemoryHash) {
  testing::FixtureFolder folder;
  std::string bytes;
  for (int i = 0; i < 300000; ++i) bytes.push_back(static_cast<char>(i * 7));
  const std::string path = folder.write("blob.bin", bytes);
  const Expected<std::string> from_file = Sha256::hexOfFile(path);
  ASSERT_TRUE(from_file.ok()) << from_file.error();
  EXPECT_EQ(*from_file, Sha256::hexOf(bytes));
}

TEST(Sha256Test, MissingFileNamesIt) {
  const Expected<std::string> hash = Sha256::hexOfFile("/nonexistent/attentionscope.bin");
  ASSERT_FALSE(hash.ok());
  EXPECT_NE(hash.error().find("/nonexistent/attentionscope.bin"), std::string::npos);
}

TEST(Sha256Test, RecognisesHexDigests) {
  EXPECT_TRUE(Sha256::isHexDigest(std::string(64, 'a')));
  EXPECT_TRUE(Sha256::isHexDigest(std::string(64, 'F')));
  EXPECT_FALSE(Sha256::isHexDigest(std::string(63, 'a')));
  EXPECT_FALSE(Sha256::isHexDigest(std::string(64, 'g')));
}

}  // namespace
}  // namespace ascope
