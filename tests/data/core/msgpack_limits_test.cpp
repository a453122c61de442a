// The iterative MessagePack scan that runs before nlohmann's recursive decoder: nesting, element
// count and every length are bounded, so a crafted attention snapshot cannot overflow a thread's
// stack or make the decoder allocate what the file does not hold.
#include "engine/core/msgpack_limits.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

namespace ascope {
namespace {

std::string packed(const nlohmann::json& j) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

std::string checkMsgpack(const std::string& bytes, const MsgpackLimits& limits = {}) {
  const Status s = checkMsgpackLimits(bytes, "snap.msgpack", limits);
  return s.ok() ? "ok" : s.error();
}

TEST(MsgpackLimits, ReportedDeepNestingIsRefusedAtTheFirstLevelPastTheLimit) {
  // The reported file: 300,000 nested one-element arrays around a nil.
  const std::string deep = std::string(300000, '\x91') + '\xc0';
  EXPECT_EQ(checkMsgpack(deep),
            "snap.msgpack: MessagePack nested deeper than 32 levels at byte 32");
  EXPECT_EQ(checkMsgpack(std::string(32, '\x91') + '\xc0'), "ok");
  EXPECT_EQ(checkMsgpack(std::string(33, '\x91') + '\xc0'),
            "snap.msgpack: MessagePack nested deeper than 32 levels at byte 32");
  // Maps count too: {0: {0: ...}}.
  std::string maps;
  for (int i = 0; i < 40; ++i) maps += std::string("\x81\x00", 2);
  maps += '\xc0';
  EXPECT_EQ(checkMsgpack(maps),
            "snap.msgpack: MessagePack nested deeper than 32 levels at byte 64");
}

TEST(MsgpackLimits, WhatNlohmannWritesPasses) {
  nlohmann::json j = {{"version", 1},
                      {"step", 123456789012LL},
                      {"negative", -5},
                      {"small_negative", -100000},
                      {"big_negative", -10000000000LL},
                      {"unsigned", 4000000000u},
                      {"float", 0.25},
                      {"bool", true},
                      {"nil", nullptr},
                      {"short", "abc"},
                      {"str8", std::string(100, 's')},
                      {"str16", std::string(1000, 's')},
                      {"str32", std::string(70000, 's')},
                      {"bin", nlohmann::json::binary(std::vector<std::uint8_t>(300, 7))},
                      {"bin32", nlohmann::json::binary(std::vector<std::uint8_t>(70000, 7))},
                      {"array16", std::vector<int>(20, 1)},
                      {"array32", std::vector<int>(70000, 2)}};
  nlohmann::json map16 = nlohmann::json::object();
  for (int i = 0; i < 20; ++i) map16["k" + std::to_string(i)] = i;
  j["map16"] = map16;
  j["floats"] = std::vector<float>{0.5f, 1.5f};
  EXPECT_EQ(checkMsgpack(packed(j)), "ok");
}

TEST(MsgpackLimits, EveryTypeCodeIsUnderstood) {
  // Hand-written, one value of each kind (30) inside one array announced with 31.
  std::string all = "\xdc";
  all += std::string("\x00\x1f", 2);                                      // array 16 of 31
  all += std::string("\x05\xe0\xc0\xc2\xc3", 5);                          // fixints, nil, bools
  all += std::string("\xc4\x01x\xc5\x00\x01x\xc6\x00\x00\x00\x01x", 13);  // bin 8/16/32
  all += std::string("\xc7\x01\x05x\xc8\x00\x01\x05x\xc9\x00\x00\x00\x01\x05x", 16);  // ext
  all += std::string("\xca\x00\x00\x00\x00\xcb", 6) + std::string(8, '\0');           // float 32/64
  all += std::string("\xcc\x01\xcd\x00\x01\xce\x00\x00\x00\x01\xcf", 11) + std::string(8, '\0');
  all += std::string("\xd0\x01\xd1\x00\x01\xd2\x00\x00\x00\x01\xd3", 11) + std::string(8, '\0');
  all += std::string("\xd4\x01x\xd5\x01xx\xd6\x01xxxx\xd7\x01", 15) + std::string(8, 'x');
  all += std::string("\xd8\x01", 2) + std::string(16, 'x');                    // fixext 16
  all += std::string("\xa1x\xd9\x01x\xda\x00\x01x\xdb\x00\x00\x00\x01x", 15);  // strings
  ASSERT_EQ(all.size(), 145u);
  // Every payload was skipped by its exact length: the scan ends right at the end, one short.
  EXPECT_EQ(checkMsgpack(all),
            "snap.msgpack: MessagePack is cut short at byte 145 (the file has 145 bytes)");
  all += '\x90';  // fixarray of 0: the 31st
  EXPECT_EQ(checkMsgpack(all), "ok");
  EXPECT_EQ(checkMsgpack(std::string("\xdd\x00\x00\x00\x01\x80", 6)), "ok");  // array 32, fixmap
  EXPECT_EQ(checkMsgpack(std::string("\xde\x00\x01\x01\x02", 5)), "ok");      // map 16
  EXPECT_EQ(checkMsgpack(std::string("\xdf\x00\x00\x00\x01\x01\x02", 7)), "ok");  // map 32
}

TEST(MsgpackLimits, LengthsPastTheEndAreRefused) {
  EXPECT_EQ(checkMsgpack(std::string("\xdb\xff\xff\xff\xff"
                                     "abc",
                                     8)),
            "snap.msgpack: MessagePack length 4294967295 at byte 0 runs past the end of the "
            "8-byte data");
  EXPECT_EQ(checkMsgpack(std::string("\xdd\xff\xff\xff\xff\xc0", 6)),
            "snap.msgpack: MessagePack array of 4294967295 values at byte 0 runs past the end of "
            "the 6-byte data");
  EXPECT_EQ(checkMsgpack(std::string("\xdf\x00\x00\x00\x02\x01\x02\x03", 8)),
            "snap.msgpack: MessagePack map of 2 pairs at byte 0 runs past the end of the 8-byte "
            "data");
  EXPECT_EQ(checkMsgpack(std::string("\xc6\x00\x00", 3)),
            "snap.msgpack: MessagePack is cut short in a length field at byte 0");
  EXPECT_EQ(checkMsgpack(std::string("\xcb\x00", 2)),
            "snap.msgpack: MessagePack length 8 at byte 0 runs past the end of the 2-byte data");
  EXPECT_EQ(checkMsgpack(""),
            "snap.msgpack: MessagePack is cut short at byte 0 (the file has 0 bytes)");
}

TEST(MsgpackLimits, ReservedByteTrailingBytesAndElementCountAreRefused) {
  EXPECT_EQ(checkMsgpack(std::string("\x92\x01\xc1", 3)),
            "snap.msgpack: byte 0xc1 at byte 2 is not a MessagePack type");
  EXPECT_EQ(checkMsgpack(std::string("\x01\x02", 2)),
            "snap.msgpack: 1 bytes after the MessagePack value at byte 1");
  MsgpackLimits few;
  few.max_elements = 4;
  EXPECT_EQ(checkMsgpack(std::string("\x93\x01\x02\x03", 4), few), "ok");
  EXPECT_EQ(checkMsgpack(std::string("\x94\x01\x02\x03\x04", 5), few),
            "snap.msgpack: MessagePack holds more than 4 values at byte 4");
}

TEST(MsgpackLimits, WhateverPassesDecodesWithoutTrouble) {
  // Random mutations of a real snapshot-shaped value: the scan either refuses them or nlohmann
  // decodes them (it may still find them invalid, e.g. bad UTF-8, and says so with a throw).
  const std::string base = packed({{"groups", {{{"maps", {{{"values", {0.1f, 0.2f}}}}}}}},
                                   {"image", nlohmann::json::binary({1, 2, 3})}});
  ASSERT_EQ(checkMsgpack(base), "ok");
  std::mt19937 random(7);
  for (int round = 0; round < 20000; ++round) {
    std::string bytes = base;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      bytes[random() % bytes.size()] = static_cast<char>(random() % 256);
    }
    if (random() % 4 == 0) bytes.resize(random() % bytes.size());
    if (checkMsgpack(bytes) != "ok") continue;
    try {
      const nlohmann::json decoded = nlohmann::json::from_msgpack(bytes);
      EXPECT_FALSE(decoded.is_discarded());
    } catch (const nlohmann::json::exception&) {
    }
  }
}

}  // namespace
}  // namespace ascope
