#pragma once
// Attention snapshots and probe sets (attention/step_XXXXXXXXX.msgpack in a run folder) ⇄
// MessagePack. Plain C++
// (no LibTorch), so that the decoder can be fuzzed (tests/fuzz/attention_snapshot_fuzzer.cpp).
#include <string>

#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Snapshot ⇄ MessagePack (compact; floats stay 32-bit).
std::string encodeAttentionSnapshot(const AttentionSnapshot& snapshot);
/// Errors start with `name`. Sizes, counts and labels outside what the tasks write are refused.
/// Files written before `causal`, `row_predictions`, `decoding`, `sample` and
/// `positional_encoding` existed decode with those empty (version stays 1: older readers skip
/// keys they do not know).
Expected<AttentionSnapshot> decodeAttentionSnapshot(const std::string& bytes,
                                                    const std::string& name);

/// A probe set as the run folder stores it (version 3): every sample's weights as float16
/// (attention weights in 0..1 lose under 0.05 % and take 2 bytes instead of 5), the positional
/// encoding as float32 bytes (version 2 had it as an array of numbers, far slower to read).
std::string encodeProbeSet(const ProbeSet& probes);
/// Also reads version 2, and the version-1 files of runs made before the probe set (one sample,
/// float32).
Expected<ProbeSet> decodeProbeSet(const std::string& bytes, const std::string& name);
/// A regular file of at most kMaxMsgpackFileBytes, decoded; errors name `path`.
Expected<ProbeSet> readProbeSet(const std::string& path);

}  // namespace ascope
