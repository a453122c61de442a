#pragma once
// The handout's data as the page reads it: one JSON document in which every array of numbers is
// packed bytes in base64 (attention weights and statistics as 8-bit codes with their scale, curves
// as float32, steps as float64), and label lists, texts and images are stored once and referred
// to by index (a probe's tokens are the same at every step). The layout is the page's contract:
// resources/handout/handout.schema.json (checked by tests/handout), read by resources/handout/js.
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/handout/handout_budget.h"
#include "engine/handout/handout_computation.h"
#include "engine/handout/handout_data.h"
#include "engine/handout/handout_lesson.h"

namespace ascope {

/// The document's layout: "format" in it, in resources/handout/handout.schema.json and in
/// resources/handout/js/data.js (HANDOUT_FORMAT). Raise all three together when the layout changes.
inline constexpr int kHandoutFormat = 1;
/// Series longer than this are averaged into this many points (a page draws ~1,000 pixels).
inline constexpr std::size_t kMaxCurvePoints = 4000;
/// Head statistics are thinned evenly to this many steps: a sparkline is ~150 pixels wide.
inline constexpr std::size_t kMaxHeadStatSteps = 400;

class HandoutPacker {
 public:
  /// Frames packed later add their label lists, texts, images and encodings to the packer's
  /// tables, so pack them in step order and make the document last.
  HandoutPacker() = default;

  /// The frame with the selected probes, groups and layers only.
  nlohmann::json packFrame(const HandoutFrame& frame, const HandoutSelection& selection);

  /// What the frame adds to the page in bytes, for planHandout. Counts the texts, label lists,
  /// images and encodings it shares with frames measured before as already there (measure in
  /// step order, as the packer packs).
  HandoutCosts::Frame measureFrame(const HandoutFrame& frame, int group_count);

  /// The lesson's section, which the document carries from then on: each moment with its head's
  /// weights for each input packed as a frame's map is (a byte per weight of the map's largest),
  /// their labels, texts and images added to the tables the frames share.
  void packLesson(const HandoutLesson& lesson);

  /// The explained heads' section (handout_computation_packing.h), which the document carries
  /// from then on; each names its group by its index in `groups` (the document's), its labels
  /// added to the tables the frames share.
  void packComputations(const std::vector<HandoutComputation>& computations,
                        const std::vector<HandoutGroup>& groups);

  /// The whole document: `data` with `frames` (packFrame's, in step order), the groups kept in
  /// `selection` marked, what was left out to stay under `max_mb`, and the page's first colours
  /// (`theme`, "" for the reader's system's).
  std::string document(const HandoutData& data, const std::vector<nlohmann::json>& frames,
                       const HandoutSelection& selection, const std::vector<std::string>& left_out,
                       double max_mb, const std::string& theme = "") const;

  /// The viridis colour map the window draws weights with (PlotTheme::sequentialGradient: eleven
  /// stops of matplotlib's viridis, interpolated in RGB to 256 levels), as 256 × 3 bytes.
  static std::vector<std::uint8_t> viridisLevels();

 private:
  int labelList(const std::vector<std::string>& labels);
  int text(const std::string& text);
  int image(const HandoutImage& image);
  int encoding(const HandoutPositionalEncoding& encoding);

  std::vector<std::vector<std::string>> label_lists_;
  std::map<std::vector<std::string>, int> label_index_;
  std::vector<std::string> texts_;
  std::map<std::string, int> text_index_;
  std::vector<nlohmann::json> images_;
  std::map<std::string, int> image_index_;  ///< by its bytes
  std::vector<nlohmann::json> encodings_;
  std::map<std::string, int> encoding_index_;  ///< by its packed bytes
  nlohmann::json lesson_;                      ///< null: no lesson
  nlohmann::json computations_;                ///< null: no head explained
  // measureFrame's own record of what it has counted.
  std::map<std::string, bool> measured_;
};

}  // namespace ascope
