// The safetensors header parser accepts what the official library writes and refuses, with a
// message naming the file and the field, every header that would make a reader step outside the
// file or read one tensor's bytes as another's.
#include "engine/pretrained/format/safetensors_header.h"

#include <gtest/gtest.h>

#include <string>

namespace ascope {
namespace {

/// A whole file: the little-endian length of `json`, `json`, then `data`.
std::string fileWith(const std::string& json, const std::string& data = "") {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<char>((static_cast<std::uint64_t>(json.size()) >> (8 * i)) & 0xffu);
  }
  return bytes + json + data;
}

Expected<SafetensorsHeader> parse(const std::string& file) {
  return parseSafetensorsHeader(file, file.size(), "m.safetensors");
}

/// The error for a file of `json` and `data_bytes` zero bytes of data.
std::string errorFor(const std::string& json, std::size_t data_bytes = 0) {
  const auto header = parse(fileWith(json, std::string(data_bytes, '\0')));
  return header.ok() ? "<accepted>" : header.error();
}

TEST(SafetensorsHeader, ReadsEntriesInDataOrderWithMetadata) {
  const std::string json = R"({"b":{"dtype":"F16","shape":[2],"data_offsets":[24,28]},)"
                           R"("__metadata__":{"format":"pt","note":"x"},)"
                           R"("a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})";
  const auto header = parse(fileWith(json, std::string(28, '\0')));
  ASSERT_TRUE(header.ok()) << header.error();
  EXPECT_EQ(header->data_start, 8 + json.size());
  EXPECT_EQ(header->data_bytes, 28u);
  ASSERT_EQ(header->entries.size(), 2u);
  const SafetensorsEntry& a = header->entries[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.dtype, "F32");
  EXPECT_EQ(a.element_bytes, 4u);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(a.elementCount(), 6);
  EXPECT_EQ(a.begin, 0u);
  EXPECT_EQ(a.end, 24u);
  EXPECT_EQ(header->entries[1].name, "b");
  EXPECT_EQ(header->entries[1].dtype, "F16");
  EXPECT_EQ(header->metadata,
            (std::map<std::string, std::string>{{"format", "pt"}, {"note", "x"}}));
}

TEST(SafetensorsHeader, AcceptsZeroSizeTensorsScalarsAndNoTensors) {
  const auto header =
      parse(fileWith(R"({"empty":{"dtype":"F32","shape":[0,4],"data_offsets":[0,0]},)"
                     R"("scalar":{"dtype":"BF16","shape":[],"data_offsets":[0,2]},)"
                     R"("tail":{"dtype":"F32","shape":[4,0],"data_offsets":[2,2]}})",
                     "ab"));
  ASSERT_TRUE(header.ok()) << header.error();
  ASSERT_EQ(header->entries.size(), 3u);
  EXPECT_EQ(header->entries[0].name, "empty");
  EXPECT_EQ(header->entries[0].elementCount(), 0);
  EXPECT_EQ(header->entries[1].name, "scalar");
  EXPECT_TRUE(header->entries[1].shape.empty());
  EXPECT_EQ(header->entries[1].elementCount(), 1);
  EXPECT_EQ(header->entries[2].name, "tail");

  const auto none = parse(fileWith("{}"));
  ASSERT_TRUE(none.ok()) << none.error();
  EXPECT_TRUE(none->entries.empty());
  EXPECT_TRUE(none->metadata.empty());
  EXPECT_EQ(none->data_bytes, 0u);
}

TEST(SafetensorsHeader, AcceptsSpacePaddingAndDtypesThatDoNotLoad) {
  const auto header =
      parse(fileWith(R"({"i":{"dtype":"I64","shape":[1],"data_offsets":[0,8]},)"
                     R"("f":{"dtype":"F64","shape":[1],"data_offsets":[8,16]},)"
                     R"("k":{"dtype":"BOOL","shape":[2],"data_offsets":[16,18]},)"
                     R"("n":{"dtype":"I32","shape":[1],"data_offsets":[18,22]}}   )",
                     std::string(22, '\0')));
  ASSERT_TRUE(header.ok()) << header.error();
  ASSERT_EQ(header->entries.size(), 4u);
  EXPECT_EQ(header->entries[0].dtype, "I64");
  EXPECT_EQ(header->entries[1].dtype, "F64");
  EXPECT_EQ(header->entries[2].dtype, "BOOL");
  EXPECT_EQ(header->entries[3].dtype, "I32");
}

TEST(SafetensorsHeader, DtypeSizes) {
  EXPECT_EQ(safetensorsDtypeBytes("F32"), 4u);
  EXPECT_EQ(safetensorsDtypeBytes("F16"), 2u);
  EXPECT_EQ(safetensorsDtypeBytes("BF16"), 2u);
  EXPECT_EQ(safetensorsDtypeBytes("F64"), 8u);
  EXPECT_EQ(safetensorsDtypeBytes("BOOL"), 1u);
  EXPECT_EQ(safetensorsDtypeBytes("f32"), 0u);
  EXPECT_EQ(safetensorsDtypeBytes(""), 0u);
}

TEST(SafetensorsHeader, RefusesLengthsThatDoNotFitTheFile) {
  EXPECT_EQ(parse("").error(), "m.safetensors: file is empty, not a safetensors file");
  EXPECT_EQ(parse("abc").error(),
            "m.safetensors: file is 3 bytes, too short for a safetensors header length (8 bytes)");
  std::string huge = fileWith("{}");
  huge[7] = '\x01';  // 2^56 + 2
  EXPECT_EQ(parse(huge).error(),
            "m.safetensors: header length 72057594037927938 is over the limit of 100000000 bytes");
  std::string cut = fileWith("{}");
  cut[0] = 40;
  EXPECT_EQ(parse(cut).error(),
            "m.safetensors: header length 40 runs past the end of the file (10 bytes)");
  const std::string file = fileWith("{}");
  EXPECT_EQ(parseSafetensorsHeader(file.substr(0, 9), file.size(), "m.safetensors").error(),
            "m.safetensors: only 9 bytes of the file given, the header needs 10");
}

TEST(SafetensorsHeader, RefusesHeadersThatAreNotAJsonObject) {
  const std::string not_object =
      "m.safetensors: header is not a JSON object (it does not start with '{')";
  EXPECT_EQ(errorFor(""), not_object);
  EXPECT_EQ(errorFor("[1]"), not_object);
  EXPECT_EQ(errorFor(" {}"), not_object);
  EXPECT_EQ(errorFor("12345678"), not_object);
  EXPECT_EQ(errorFor(std::string("{}\0\0", 4)),
            "m.safetensors: header is not valid JSON: NUL byte at byte 3")
      << "NUL padding is not the format's space padding";
  const std::string entry = R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}})";
  EXPECT_EQ(errorFor(entry + std::string("\0x", 2)),
            "m.safetensors: header is not valid JSON: NUL byte at byte 55");
  EXPECT_EQ(errorFor(R"({"a":NaN})").rfind("m.safetensors: header is not valid JSON: ", 0), 0u);
  EXPECT_EQ(errorFor("{\"a\xff\":1}").rfind("m.safetensors: header is not valid JSON: ", 0), 0u);
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1e400],"data_offsets":[0,4]}})")
                .rfind("m.safetensors: header is not valid JSON: ", 0),
            0u);
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[[[[1]]]],"data_offsets":[0,4]}})"),
            "m.safetensors: JSON nested deeper than 4 levels at line 1, byte 31");
}

TEST(SafetensorsHeader, RefusesDuplicateNames) {
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                     R"("a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                     8),
            "m.safetensors: tensor 'a' appears twice");
  EXPECT_EQ(errorFor(R"({"__metadata__":{},"__metadata__":{}})"),
            "m.safetensors: \"__metadata__\" appears twice");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","dtype":"F16","shape":[1],"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': \"dtype\" given twice");
  EXPECT_EQ(errorFor(R"({"__metadata__":{"k":"1","k":"2"}})"),
            "m.safetensors: \"__metadata__\": \"k\" given twice");
}

TEST(SafetensorsHeader, RefusesMissingOrIllTypedFields) {
  EXPECT_EQ(errorFor(R"({"a":[1]})"), "m.safetensors: tensor 'a': entry is not a JSON object");
  EXPECT_EQ(errorFor(R"({"a":{"shape":[1],"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': no \"dtype\"");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': no \"shape\"");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1]}})", 4),
            "m.safetensors: tensor 'a': no \"data_offsets\"");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":4,"shape":[1],"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': \"dtype\" is not a string: 4");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"Q4","shape":[1],"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': unknown dtype \"Q4\"");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":"1","data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': \"shape\" is not an array: \"1\"");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1,2.5],"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': \"shape\" dimension 1 is not an integer: 2.5");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[-3],"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': \"shape\" dimension 0 is negative: -3");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":["2"],"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': \"shape\" dimension 0 is not an integer: \"2\"");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0]}})", 4),
            "m.safetensors: tensor 'a': \"data_offsets\" is not a pair [begin, end]: [0]");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":{"b":0}}})", 4),
            "m.safetensors: tensor 'a': \"data_offsets\" is not a pair [begin, end]: {\"b\":0}");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[-1,4]}})", 4),
            "m.safetensors: tensor 'a': \"data_offsets\" begin is negative: -1");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4.0]}})", 4),
            "m.safetensors: tensor 'a': \"data_offsets\" end is not an integer: 4.0");
  EXPECT_EQ(errorFor(R"({"__metadata__":[1]})"),
            "m.safetensors: \"__metadata__\" is not an object");
  EXPECT_EQ(errorFor(R"({"__metadata__":{"format":1}})"),
            "m.safetensors: \"__metadata__\" value of 'format' is not a string: 1");
}

TEST(SafetensorsHeader, ShortensLongValuesInMessages) {
  std::string shape = "[";
  for (int i = 0; i < 1000; ++i) shape += "1,";
  shape += "\"x\"]";
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":)" + shape + R"(,"data_offsets":[0,4]}})", 4),
            "m.safetensors: tensor 'a': \"shape\" dimension 1000 is not an integer: \"x\"");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":)" + shape + "}}", 4),
            "m.safetensors: tensor 'a': \"data_offsets\" is not a pair [begin, end]: "
            "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1...");
}

TEST(SafetensorsHeader, RefusesSizesThatDoNotAddUp) {
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,20]}})", 20),
            "m.safetensors: tensor 'a': \"shape\" [2, 3] of F32 is 24 bytes, "
            "\"data_offsets\" [0, 20] hold 20");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", 8),
            "m.safetensors: tensor 'a': \"data_offsets\" [8, 4] begin after end");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", 8),
            "m.safetensors: tensor 'a': \"data_offsets\" [0, 16] end past the 8-byte data section");
  EXPECT_EQ(
      errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,18446744073709551615]}})", 4),
      "m.safetensors: tensor 'a': \"data_offsets\" [0, 18446744073709551615] end past the "
      "4-byte data section");
  // 2^62 × 4 bytes wraps to 0 in 64 bits: without the overflow check this would pass as 0 bytes.
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0]}})"),
            "m.safetensors: tensor 'a': \"shape\" [4611686018427387904] has too many elements");
  // No elements, but strides LibTorch could not compute.
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[0,4294967296,4294967296],)"
                     R"("data_offsets":[0,0]}})"),
            "m.safetensors: tensor 'a': \"shape\" [0, 4294967296, 4294967296] has too many "
            "elements");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[9223372036854775808],"data_offsets":[0,0]}})"),
            "m.safetensors: tensor 'a': \"shape\" dimension 0 is too large: 9223372036854775808");
}

TEST(SafetensorsHeader, RefusesOverlapsGapsAndUnclaimedBytes) {
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                     R"("b":{"dtype":"F32","shape":[4],"data_offsets":[8,24]}})",
                     24),
            "m.safetensors: tensors 'a' [0, 16] and 'b' [8, 24] overlap in the data section");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                     R"("b":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})",
                     16),
            "m.safetensors: tensors 'a' [0, 16] and 'b' [0, 16] overlap in the data section");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                     R"("z":{"dtype":"F32","shape":[0],"data_offsets":[8,8]}})",
                     16),
            "m.safetensors: tensors 'a' [0, 16] and 'z' [8, 8] overlap in the data section");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                     R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                     12),
            "m.safetensors: bytes [4, 8) of the data section belong to no tensor (between 'a' and "
            "'b')");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8),
            "m.safetensors: bytes [0, 4) of the data section belong to no tensor (before 'a')");
  EXPECT_EQ(errorFor(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 6),
            "m.safetensors: bytes [4, 6) of the data section belong to no tensor (after 'a')");
  EXPECT_EQ(errorFor("{}", 3),
            "m.safetensors: bytes [0, 3) of the data section belong to no tensor");
}

TEST(SafetensorsHeader, SerializesAsTheOfficialWriterAndParsesBack) {
  std::vector<SafetensorsEntry> entries(2);
  entries[0] = {"w", "F32", 4, {2}, 0, 8};
  entries[1] = {"b", "BF16", 2, {}, 8, 10};
  const auto bytes = serializeSafetensorsHeader(entries, {{"format", "pt"}});
  ASSERT_TRUE(bytes.ok()) << bytes.error();
  const std::string json =
      R"({"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
      R"("b":{"dtype":"BF16","shape":[],"data_offsets":[8,10]}})";
  const std::string padded = json + std::string((8 - json.size() % 8) % 8, ' ');
  EXPECT_EQ(*bytes, fileWith(padded));
  EXPECT_EQ(bytes->size() % 8, 0u);

  const auto header = parse(*bytes + std::string(10, '\0'));
  ASSERT_TRUE(header.ok()) << header.error();
  ASSERT_EQ(header->entries.size(), 2u);
  EXPECT_EQ(header->entries[1].name, "b");
  EXPECT_TRUE(header->entries[1].shape.empty());
  EXPECT_EQ(header->metadata.at("format"), "pt");

  const auto no_metadata = serializeSafetensorsHeader({}, {});
  ASSERT_TRUE(no_metadata.ok());
  EXPECT_EQ(*no_metadata, fileWith("{}      "));
  EXPECT_FALSE(serializeSafetensorsHeader({{"bad\xff", "F32", 4, {}, 0, 4}}, {}).ok());
}

}  // namespace
}  // namespace ascope
