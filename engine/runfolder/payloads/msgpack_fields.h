#pragma once
// The fields of a decoded MessagePack map (a snapshot file) read as a damaged or crafted file
// demands: every value checked for its type and range before it is used, sizes bounded before
// they are multiplied, and a refusal that names the file and the field.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/payloads/image_payload.h"

namespace ascope {

/// What the checks throw; the snapshot decoder turns it into its error.
struct FieldError {
  std::string message;  ///< starts with the file's name
};

class MsgpackFields {
 public:
  /// Longest token label or class name a snapshot may carry.
  static constexpr std::size_t kMaxLabelBytes = 1024;
  /// Rows, columns, labels and image sides: what the tasks write is far inside.
  static constexpr std::int64_t kMaxSide = 4096;

  /// `name` starts every message (the file, and which sample of it).
  explicit MsgpackFields(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  /// The same checks for a map inside the file: every message says `where` first ("sample: ").
  MsgpackFields within(const std::string& where) const;

  /// Throws FieldError{name + ": " + where + message}.
  [[noreturn]] void refuse(const std::string& message) const;

  /// object[key], an integer in min..max; `where` prefixes the key in messages ("sample: ").
  std::int64_t integer(const nlohmann::json& object, const char* key, std::int64_t min,
                       std::int64_t max, const std::string& where) const;
  /// As integer, 0 when the key is missing.
  int optionalInteger(const nlohmann::json& object, const char* key, std::int64_t max,
                      const std::string& where = {}) const;
  /// A string of at most `max_bytes`.
  std::string text(const nlohmann::json& value, const std::string& what,
                   std::size_t max_bytes = kMaxLabelBytes) const;
  std::string optionalText(const nlohmann::json& object, const char* key, const std::string& where,
                           std::size_t max_bytes) const;
  /// object[key] a boolean; false when missing.
  bool flag(const nlohmann::json& object, const char* key, const std::string& where) const;
  /// A number in 0..1 (NaN passes: a model whose loss went non-finite is still probed).
  double probability(const nlohmann::json& value, const std::string& what) const;
  /// object[key], a map.
  const nlohmann::json& submap(const nlohmann::json& object, const char* key) const;
  /// object[key], an array of at most kMaxSide labels.
  std::vector<std::string> labels(const nlohmann::json& object, const char* key,
                                  const std::string& where) const;
  /// "image_width", "image_height" and the "image" bytes of `object`: channel-planar RGB or one
  /// plane (any other byte count would be read past its end); an empty buffer when absent.
  ImageBuffer image(const nlohmann::json& object, const std::string& where) const;

 private:
  std::string name_;
  std::string within_;
};

}  // namespace ascope
