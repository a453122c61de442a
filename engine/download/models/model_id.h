#pragma once
// A model's name on the Hugging Face hub: "owner/name", or a bare "name" for the hub's oldest
// models (bert-base-uncased). Checked strictly with the hub's own rules because the id becomes
// both part of a URL and the name of a folder on disk.
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

class ModelId {
 public:
  /// Accepts one or two parts separated by '/', each 1–96 of A–Z a–z 0–9 _ . -, starting and
  /// ending with a letter, digit or '_', with no "--" or ".." and no ".git" at the end. The error
  /// names the id and what is wrong, e.g. "model id \"../x\": ...".
  static Expected<ModelId> parse(std::string_view text);

  /// Empty for a bare name.
  const std::string& owner() const { return owner_; }
  const std::string& name() const { return name_; }
  /// "owner/name" or "name": the id as the hub's URLs spell it.
  std::string repoPath() const;
  /// "owner--name" or "name": unambiguous because "--" cannot occur in an id.
  std::string folderName() const;

 private:
  ModelId(std::string owner, std::string name);

  std::string owner_;
  std::string name_;
};

}  // namespace ascope
