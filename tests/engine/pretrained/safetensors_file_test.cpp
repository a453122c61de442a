// SafetensorsFile reads back exactly what writeSafetensors writes (F32, F16, BF16, special values
// included), reads the genuine file the official library wrote as Python reads it, and refuses
// cut-off files, folders and FIFOs with a message naming the path.
#include "engine/pretrained/safetensors_file.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "engine/core/atomic_file.h"
#include "engine/pretrained/format/safetensors_header.h"
#include "engine/pretrained/safetensors_writer.h"
#include "test_paths.h"
#include "tests/data/fifo_fixture.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using testing::Fifo;
using testing::FixtureFolder;

const std::string kGenuine =
    std::string(test_paths::fixturesDir()) + "/hf/bert_tiniest/model.safetensors";

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Bit-for-bit equality, so that -0 differs from +0 and NaN equals the same NaN.
void expectSameBits(const torch::Tensor& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.scalar_type(), torch::kFloat32);
  ASSERT_TRUE(actual.is_contiguous());
  ASSERT_EQ(actual.numel(), static_cast<std::int64_t>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    std::uint32_t a = 0, e = 0;
    std::memcpy(&a, actual.data_ptr<float>() + i, 4);
    std::memcpy(&e, &expected[i], 4);
    EXPECT_EQ(a, e) << "element " << i << ": " << actual.data_ptr<float>()[i] << " vs "
                    << expected[i];
  }
}

torch::Tensor floats(const std::vector<float>& values) {
  return torch::from_blob(const_cast<float*>(values.data()),
                          {static_cast<std::int64_t>(values.size())}, torch::kFloat32)
      .clone();
}

Expected<SafetensorsFile> writeAndOpen(const std::string& path,
                                       const std::vector<std::pair<std::string, torch::Tensor>>& t,
                                       const std::map<std::string, std::string>& metadata = {}) {
  if (Status s = writeSafetensors(path, t, metadata); !s.ok()) return Error{s.error()};
  return SafetensorsFile::open(path);
}

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(SafetensorsFile, RoundTripsFloat32Exactly) {
  FixtureFolder folder;
  const std::vector<float> values = {0.0f,          -0.0f,
                                     1.0f,          -1.5f,
                                     kInf,          -kInf,
                                     1e-40f,  // subnormal
                                     3.4028235e38f, std::numeric_limits<float>::quiet_NaN(),
                                     0.1f,          -7e-45f,
                                     123456.789f};
  const auto file = writeAndOpen(folder.path("f32.safetensors"),
                                 {{"w", floats(values).reshape({3, 4})}}, {{"format", "pt"}});
  ASSERT_TRUE(file.ok()) << file.error();
  ASSERT_EQ(file->entries().size(), 1u);
  EXPECT_EQ(file->entries()[0].dtype, "F32");
  EXPECT_EQ(file->entries()[0].shape, (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(file->metadata(), (std::map<std::string, std::string>{{"format", "pt"}}));
  const auto w = file->tensor("w");
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_EQ(w->sizes(), torch::IntArrayRef({3, 4}));
  expectSameBits(*w, values);
}

TEST(SafetensorsFile, ConvertsFloat16ExactlyIncludingSubnormals) {
  FixtureFolder folder;
  // Every value is a binary16 value, so float32 → F16 → float32 must give it back bit for bit.
  const std::vector<float> values = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -2.5f,
                                     65504.0f,                   // largest finite
                                     std::ldexp(1.0f, -14),      // smallest normal
                                     std::ldexp(1.0f, -24),      // smallest subnormal
                                     -std::ldexp(1023.0f, -24),  // largest subnormal, negative
                                     std::ldexp(3.0f, -20),      // a subnormal in between
                                     kInf,
                                     -kInf,
                                     0.333251953125f};
  const auto file =
      writeAndOpen(folder.path("f16.safetensors"), {{"h", floats(values).to(torch::kFloat16)}});
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_EQ(file->entries()[0].dtype, "F16");
  EXPECT_EQ(file->entries()[0].end - file->entries()[0].begin, 2 * values.size());
  const auto h = file->tensor("h");
  ASSERT_TRUE(h.ok()) << h.error();
  expectSameBits(*h, values);

  const auto nan_file = writeAndOpen(
      folder.path("nan.safetensors"),
      {{"n", torch::full({1}, std::numeric_limits<float>::quiet_NaN()).to(torch::kFloat16)}});
  ASSERT_TRUE(nan_file.ok()) << nan_file.error();
  EXPECT_TRUE(std::isnan(nan_file->tensor("n")->item<float>()));
}

TEST(SafetensorsFile, ConvertsBFloat16Exactly) {
  FixtureFolder folder;
  const std::vector<float> values = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     3.140625f,
                                     -65280.0f,
                                     3.3895314e38f,           // largest finite bfloat16
                                     std::ldexp(1.0f, -126),  // smallest normal
                                     std::ldexp(1.0f, -133),  // smallest subnormal
                                     kInf,
                                     -kInf};
  const auto file = writeAndOpen(folder.path("bf16.safetensors"),
                                 {{"b", floats(values).to(torch::kBFloat16).reshape({2, 5})}});
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_EQ(file->entries()[0].dtype, "BF16");
  const auto b = file->tensor("b");
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(b->sizes(), torch::IntArrayRef({2, 5}));
  expectSameBits(*b, values);
}

TEST(SafetensorsFile, ListsEntriesInFileOrderAndFindsThem) {
  FixtureFolder folder;
  const auto file = writeAndOpen(folder.path("m.safetensors"),
                                 {{"z.weight", torch::ones({2, 3})},
                                  {"empty", torch::ones({0, 4})},
                                  {"scalar", torch::scalar_tensor(2.5f)},
                                  {"a.half", torch::ones({5}).to(torch::kFloat16)}});
  ASSERT_TRUE(file.ok()) << file.error();
  ASSERT_EQ(file->entries().size(), 4u);
  EXPECT_EQ(file->entries()[0].name, "z.weight");
  EXPECT_EQ(file->entries()[1].name, "empty");
  EXPECT_EQ(file->entries()[2].name, "scalar");
  EXPECT_EQ(file->entries()[3].name, "a.half");
  EXPECT_TRUE(file->metadata().empty());
  ASSERT_NE(file->find("a.half"), nullptr);
  EXPECT_EQ(file->find("a.half")->dtype, "F16");
  EXPECT_EQ(file->find("nope"), nullptr);

  const auto empty = file->tensor("empty");
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_EQ(empty->sizes(), torch::IntArrayRef({0, 4}));
  const auto scalar = file->tensor("scalar");
  ASSERT_TRUE(scalar.ok()) << scalar.error();
  EXPECT_EQ(scalar->dim(), 0);
  EXPECT_EQ(scalar->item<float>(), 2.5f);
  EXPECT_EQ(file->tensor("nope").error(), file->path() + ": no tensor named 'nope'");
}

TEST(SafetensorsFile, WritesTheLayoutOfTheOfficialLibrary) {
  FixtureFolder folder;
  const std::string path = folder.path("layout.safetensors");
  ASSERT_TRUE(writeSafetensors(path, {{"w", torch::ones({3})}}).ok());
  const std::string bytes = fileBytes(path);
  const std::string json = R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,12]}})";
  const std::size_t padded = (json.size() + 7) / 8 * 8;
  ASSERT_EQ(bytes.size(), 8 + padded + 12);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), padded);
  EXPECT_EQ(bytes.substr(1, 7), std::string(7, '\0'));
  EXPECT_EQ(bytes.substr(8, padded), json + std::string(padded - json.size(), ' '));
  EXPECT_EQ(bytes.substr(8 + padded, 4), std::string("\x00\x00\x80\x3f", 4));  // 1.0f, LE
}

TEST(SafetensorsFile, WriterRefusesWhatTheFormatCannotHold) {
  FixtureFolder folder;
  const std::string path = folder.path("bad.safetensors");
  EXPECT_EQ(writeSafetensors(path, {{"i", torch::ones({2}, torch::kInt64)}}).error(),
            path + ": tensor 'i' is Long; safetensors files are written in F32, F16 or BF16");
  EXPECT_EQ(writeSafetensors(path, {{"a", torch::ones({1})}, {"a", torch::ones({1})}}).error(),
            path + ": tensor 'a' given twice");
  EXPECT_EQ(writeSafetensors(path, {{"__metadata__", torch::ones({1})}}).error(),
            path + ": tensor '__metadata__': the name is reserved for metadata");
  EXPECT_EQ(writeSafetensors(path, {{"u", torch::Tensor()}}).error(),
            path + ": tensor 'u' is undefined");
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(writeSafetensors(folder.path("no/such/folder/x.safetensors"), {}).ok());
}

TEST(SafetensorsFile, AFailedWriteKeepsThePreviousFile) {
  FixtureFolder folder;
  const std::string path = folder.path("kept.safetensors");
  ASSERT_TRUE(writeSafetensors(path, {{"w", torch::full({2}, 1.0f)}}).ok());
  atomic_file_testing::failWrites("kept.safetensors", ENOSPC);
  const Status failed = writeSafetensors(path, {{"w", torch::full({2}, 2.0f)}});
  atomic_file_testing::stopFailingWrites();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error(), "disk full while writing " + path);
  const auto file = SafetensorsFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_TRUE(torch::equal(*file->tensor("w"), torch::full({2}, 1.0f)));
}

TEST(SafetensorsFile, WritesNonContiguousTensorsInLogicalOrder) {
  FixtureFolder folder;
  const torch::Tensor t = torch::arange(6, torch::kFloat32).reshape({2, 3}).t();
  const auto file = writeAndOpen(folder.path("t.safetensors"), {{"t", t}});
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_TRUE(torch::equal(*file->tensor("t"), t));
}

TEST(SafetensorsFile, RefusesUnsupportedDtypesOnlyWhenLoaded) {
  FixtureFolder folder;
  std::vector<SafetensorsEntry> entries = {{"ids", "I64", 8, {2}, 0, 16},
                                           {"w", "F32", 4, {1}, 16, 20}};
  const auto header = serializeSafetensorsHeader(entries, {});
  ASSERT_TRUE(header.ok());
  std::string data(20, '\0');
  data[16 + 3] = '\x3f';
  data[16 + 2] = '\x80';  // 1.0f
  const std::string path = folder.write("mixed.safetensors", *header + data);
  const auto file = SafetensorsFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_EQ(file->tensor("ids").error(),
            path + ": unsupported dtype I64 for tensor 'ids' (F32, F16 and BF16 load)");
  EXPECT_EQ(file->tensor("w")->item<float>(), 1.0f);
}

TEST(SafetensorsFile, RefusesTruncatedAndEmptyFiles) {
  FixtureFolder folder;
  const std::string whole = folder.path("whole.safetensors");
  ASSERT_TRUE(writeSafetensors(whole, {{"a", torch::ones({4})}, {"b", torch::ones({4})}}).ok());
  const std::string bytes = fileBytes(whole);
  const std::size_t data_bytes = 32;

  const std::string cut_data = folder.write("cut.safetensors", bytes.substr(0, bytes.size() - 6));
  EXPECT_EQ(SafetensorsFile::open(cut_data).error(),
            cut_data + ": tensor 'b': \"data_offsets\" [16, 32] end past the 26-byte data section");
  const std::string cut_header = folder.write("cut_header.safetensors", bytes.substr(0, 20));
  EXPECT_EQ(SafetensorsFile::open(cut_header).error(),
            cut_header + ": header length " + std::to_string(bytes.size() - 8 - data_bytes) +
                " runs past the end of the file (20 bytes)");
  const std::string longer = folder.write("longer.safetensors", bytes + "xx");
  EXPECT_EQ(SafetensorsFile::open(longer).error(),
            longer + ": bytes [32, 34) of the data section belong to no tensor (after 'b')");
  const std::string empty = folder.write("empty.safetensors", "");
  EXPECT_EQ(SafetensorsFile::open(empty).error(),
            empty + ": file is empty, not a safetensors file");
  const std::string tiny = folder.write("tiny.safetensors", "abc");
  EXPECT_EQ(SafetensorsFile::open(tiny).error(),
            tiny + ": file is 3 bytes, too short for a safetensors header length (8 bytes)");
  EXPECT_EQ(SafetensorsFile::open(folder.path("missing")).error(),
            folder.path("missing") + ": cannot open: No such file or directory");
}

TEST(SafetensorsFile, RefusesFoldersAndFifosWithoutBlocking) {
  FixtureFolder folder;
  EXPECT_EQ(SafetensorsFile::open(folder.path()).error(),
            folder.path() + ": is a folder, not a file");
  Fifo fifo(folder.path("pipe.safetensors"));
  ASSERT_TRUE(fifo.created());
  const auto start = std::chrono::steady_clock::now();
  const auto opened = SafetensorsFile::open(fifo.path());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1500))
      << "open() waited for a writer";
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error(), fifo.path() + " is not a regular file (a FIFO)");
}

TEST(SafetensorsFile, TensorsOutliveTheFileAndMovesKeepTheMap) {
  FixtureFolder folder;
  auto file = writeAndOpen(folder.path("m.safetensors"), {{"w", torch::full({3}, 4.0f)}});
  ASSERT_TRUE(file.ok()) << file.error();
  SafetensorsFile moved = std::move(*file);
  torch::Tensor w = *moved.tensor("w");
  {
    SafetensorsFile other = std::move(moved);
    EXPECT_TRUE(torch::equal(*other.tensor("w"), w));
    moved = std::move(other);
  }
  EXPECT_TRUE(torch::equal(*moved.tensor("w"), torch::full({3}, 4.0f)));
  { const SafetensorsFile gone = std::move(moved); }
  EXPECT_TRUE(torch::equal(w, torch::full({3}, 4.0f)));
}

TEST(SafetensorsFile, ReadsTheOfficialLibrarysFileAsPythonDoes) {
  const auto file = SafetensorsFile::open(kGenuine);
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_EQ(file->metadata(), (std::map<std::string, std::string>{{"format", "pt"}}));
  ASSERT_EQ(file->entries().size(), 26u);
  EXPECT_EQ(file->entries().front().name, "bert.embeddings.LayerNorm.bias");
  EXPECT_EQ(file->entries().back().name, "cls.predictions.transform.dense.weight");
  const struct {
    const char* name;
    std::vector<std::int64_t> shape;
  } expected[] = {{"bert.embeddings.word_embeddings.weight", {30522, 4}},
                  {"bert.embeddings.position_embeddings.weight", {512, 4}},
                  {"bert.embeddings.token_type_embeddings.weight", {2, 4}},
                  {"bert.encoder.layer.0.attention.self.query.weight", {4, 4}},
                  {"bert.encoder.layer.0.intermediate.dense.weight", {8, 4}},
                  {"bert.encoder.layer.0.output.dense.weight", {4, 8}},
                  {"cls.predictions.bias", {30522}}};
  for (const auto& e : expected) {
    const SafetensorsEntry* entry = file->find(e.name);
    ASSERT_NE(entry, nullptr) << e.name;
    EXPECT_EQ(entry->dtype, "F32") << e.name;
    EXPECT_EQ(entry->shape, e.shape) << e.name;
  }

  // Reference values from Python: numpy.frombuffer(<data_offsets range>, dtype='<f4') on this
  // file, sums taken in float64 (numpy 1.24, Debian 12).
  const auto words = file->tensor("bert.embeddings.word_embeddings.weight");
  ASSERT_TRUE(words.ok()) << words.error();
  EXPECT_NEAR(words->to(torch::kFloat64).sum().item<double>(), -1.7627165161502774, 1e-12);
  EXPECT_NEAR(words->to(torch::kFloat64).abs().sum().item<double>(), 1956.4014807200745, 1e-9);
  expectSameBits((*words)[101].contiguous(), {-0.003275945782661438f, -0.020314322784543037f,
                                              0.023857135325670242f, 0.006598030216991901f});
  const auto positions = file->tensor("bert.embeddings.position_embeddings.weight");
  ASSERT_TRUE(positions.ok()) << positions.error();
  EXPECT_NEAR(positions->to(torch::kFloat64).sum().item<double>(), -0.29688312705525277, 1e-12);
  const auto query = file->tensor("bert.encoder.layer.0.attention.self.query.weight");
  ASSERT_TRUE(query.ok()) << query.error();
  expectSameBits(
      query->reshape({16}),
      {-0.01145912054926157f, -0.005053109955042601f, 0.0022263822611421347f, -0.01165104378014803f,
       0.030180422589182854f, -0.015066557563841343f, -0.011538459919393063f, -0.02003014273941517f,
       -0.005987572018057108f, 0.010866817086935043f, 0.023997996002435684f, 0.022866062819957733f,
       0.028193477541208267f, 0.016904979944229126f, -0.01798883080482483f,
       -0.005054290406405926f});
  EXPECT_EQ(file->tensor("cls.predictions.bias")->abs().sum().item<float>(), 0.0f);
}

TEST(SafetensorsFile, WriterReproducesTheOfficialLibrarysFileByteForByte) {
  const auto file = SafetensorsFile::open(kGenuine);
  ASSERT_TRUE(file.ok()) << file.error();
  std::vector<std::pair<std::string, torch::Tensor>> tensors;
  for (const SafetensorsEntry& entry : file->entries()) {
    tensors.emplace_back(entry.name, *file->tensor(entry.name));
  }
  FixtureFolder folder;
  const std::string copy = folder.path("copy.safetensors");
  ASSERT_TRUE(writeSafetensors(copy, tensors, file->metadata()).ok());
  EXPECT_TRUE(fileBytes(copy) == fileBytes(kGenuine));
}

}  // namespace
}  // namespace ascope
