// Decoding attention snapshots (attention/step_*.msgpack): decodeAttentionSnapshot on arbitrary
// bytes. Errors name the input; what decodes keeps the decoder's bounds, and re-encodes and
// decodes to the same values.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "fuzz_check.h"

namespace {

bool sameFloat(float a, float b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

/// The snapshot's image payload; an empty one when it has none.
ascope::ImagePayload imageOf(const ascope::AttentionSnapshot& s) {
  const ascope::ImagePayload* image = s.payloads.find<ascope::ImagePayload>();
  return image ? *image : ascope::ImagePayload{};
}

bool sameSnapshot(const ascope::AttentionSnapshot& a, const ascope::AttentionSnapshot& b) {
  const ascope::ImagePayload x = imageOf(a), y = imageOf(b);
  if (a.step != b.step || a.task != b.task || a.sample_index != b.sample_index ||
      x.image.width != y.image.width || x.image.height != y.image.height ||
      x.image.pixels != y.image.pixels || x.patch_size != y.patch_size ||
      x.grid_rows != y.grid_rows || x.grid_cols != y.grid_cols ||
      a.payloads.all().size() != b.payloads.all().size() || a.groups.size() != b.groups.size()) {
    return false;
  }
  for (std::size_t g = 0; g < a.groups.size(); ++g) {
    const ascope::AttentionGroup& x = a.groups[g];
    const ascope::AttentionGroup& y = b.groups[g];
    if (x.name != y.name || x.layers != y.layers || x.heads != y.heads ||
        x.row_labels != y.row_labels || x.col_labels != y.col_labels ||
        x.maps.size() != y.maps.size()) {
      return false;
    }
    for (std::size_t m = 0; m < x.maps.size(); ++m) {
      const ascope::AttentionMap& p = x.maps[m];
      const ascope::AttentionMap& q = y.maps[m];
      if (p.rows != q.rows || p.cols != q.cols || p.values.size() != q.values.size()) return false;
      for (std::size_t i = 0; i < p.values.size(); ++i) {
        if (!sameFloat(p.values[i], q.values[i])) return false;
      }
    }
  }
  return true;
}

void checkBounds(const ascope::AttentionSnapshot& snapshot) {
  using ascope::fuzz::check;
  check(snapshot.step >= 0 && snapshot.sample_index >= 0);
  for (const ascope::AttentionGroup& group : snapshot.groups) {
    check(group.layers >= 1 && group.heads >= 1);
    check(group.maps.size() == static_cast<std::size_t>(group.layers) * group.heads);
    for (const ascope::AttentionMap& map : group.maps) {
      check(map.rows >= 1 && map.cols >= 1);
      check(map.values.size() == static_cast<std::size_t>(map.rows) * map.cols);
    }
  }
  const ascope::ImagePayload image = imageOf(snapshot);
  const std::size_t plane =
      static_cast<std::size_t>(image.image.width) * static_cast<std::size_t>(image.image.height);
  const std::size_t pixels = image.image.pixels.size();
  check(pixels == 0 || pixels == plane || pixels == 3 * plane);
}

}  // namespace

// Both decoders: one sample's snapshot (version 1, float32) and the probe set the run folder
// stores (version 2, float16 weights; version-1 files read as a set of one).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const ascope::Expected<ascope::AttentionSnapshot> snapshot =
      ascope::decodeAttentionSnapshot(bytes, "fuzz.msgpack");
  if (!snapshot.ok()) {
    check(snapshot.error().rfind("fuzz.msgpack", 0) == 0);
  } else {
    checkBounds(*snapshot);
    const std::string encoded = ascope::encodeAttentionSnapshot(*snapshot);
    const ascope::Expected<ascope::AttentionSnapshot> again =
        ascope::decodeAttentionSnapshot(encoded, "again.msgpack");
    check(again.ok() && sameSnapshot(*snapshot, *again));
  }

  const ascope::Expected<ascope::ProbeSet> probes = ascope::decodeProbeSet(bytes, "fuzz.msgpack");
  if (!probes.ok()) {
    check(probes.error().rfind("fuzz.msgpack", 0) == 0);
    return 0;
  }
  check(!probes->samples.empty());
  for (const ascope::AttentionSnapshot& sample : probes->samples) checkBounds(sample);
  // float16 rounds once: a set encoded, decoded and encoded again reads the same.
  const ascope::Expected<ascope::ProbeSet> rounded =
      ascope::decodeProbeSet(ascope::encodeProbeSet(*probes), "rounded.msgpack");
  check(rounded.ok() && rounded->samples.size() == probes->samples.size());
  const ascope::Expected<ascope::ProbeSet> again =
      ascope::decodeProbeSet(ascope::encodeProbeSet(*rounded), "again.msgpack");
  check(again.ok() && again->samples.size() == rounded->samples.size());
  for (std::size_t i = 0; i < again->samples.size(); ++i) {
    check(sameSnapshot(rounded->samples[i], again->samples[i]));
  }
  return 0;
}
