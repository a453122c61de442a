#include "engine/download/models/model_id.h"

#include <cstdio>

namespace ascope {
namespace {

constexpr std::size_t kMaxPartLength = 96;

bool isWordCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string shown(char c) {
  if (c >= ' ' && c < 127) return std::string("'") + c + "'";
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", static_cast<unsigned char>(c));
  return text;
}

/// Why `part` (the owner or the name) is not allowed; empty when it is.
std::string problemWith(std::string_view part, const char* what) {
  const std::string label(what);
  if (part.empty()) return "the " + label + " is empty";
  if (part.size() > kMaxPartLength) {
    return "the " + label + " is longer than " + std::to_string(kMaxPartLength) + " characters";
  }
  for (const char c : part) {
    if (!isWordCharacter(c) && c != '-' && c != '.') {
      return "the " + label + " contains " + shown(c) + " (allowed: letters, digits, _ . -)";
    }
  }
  if (part.find("--") != std::string_view::npos || part.find("..") != std::string_view::npos) {
    return "the " + label + " contains \"--\" or \"..\"";
  }
  if (!isWordCharacter(part.front()) || !isWordCharacter(part.back())) {
    return "the " + label + " must start and end with a letter, a digit or _";
  }
  return {};
}

}  // namespace

ModelId::ModelId(std::string owner, std::string name)
    : owner_(std::move(owner)), name_(std::move(name)) {}

Expected<ModelId> ModelId::parse(std::string_view text) {
  const auto refused = [&](const std::string& reason) {
    return Error{"model id \"" + std::string(text) + "\": " + reason +
                 " (expected owner/name such as google/vit-base-patch16-224, or a bare name such "
                 "as bert-base-uncased)"};
  };
  const std::size_t slash = text.find('/');
  if (slash != std::string_view::npos && text.find('/', slash + 1) != std::string_view::npos) {
    return refused("more than one '/'");
  }
  const std::string_view owner =
      slash == std::string_view::npos ? std::string_view() : text.substr(0, slash);
  const std::string_view name = slash == std::string_view::npos ? text : text.substr(slash + 1);
  if (slash != std::string_view::npos) {
    if (std::string problem = problemWith(owner, "owner"); !problem.empty()) {
      return refused(problem);
    }
  }
  if (std::string problem = problemWith(name, "name"); !problem.empty()) return refused(problem);
  if (name.size() >= 4 && name.substr(name.size() - 4) == ".git") {
    return refused("the name ends with .git");
  }
  return ModelId(std::string(owner), std::string(name));
}

std::string ModelId::repoPath() const {
  return owner_.empty() ? name_ : owner_ + "/" + name_;
}

std::string ModelId::folderName() const {
  return owner_.empty() ? name_ : owner_ + "--" + name_;
}

}  // namespace ascope
