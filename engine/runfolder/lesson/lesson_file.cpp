#include "engine/runfolder/lesson/lesson_file.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/core/json_file.h"
#include "engine/core/printable_text.h"

namespace ascope {
namespace {

/// Dozens of moments of a few lines each; a larger file is not one we wrote.
constexpr std::uint64_t kMaxLessonBytes = std::uint64_t{4} << 20;
constexpr std::size_t kMaxPathBytes = 4096;
constexpr std::size_t kMaxInputBytes = 10000;  ///< a review, a sentence
constexpr std::size_t kMaxShortBytes = 2000;   ///< a question, a group, a title
constexpr std::int64_t kMaxIndex = 100000000;  ///< a sample, a query row
constexpr std::int64_t kMaxLayerOrHead = 4096;
constexpr std::int64_t kMaxStep = 1000000000000;

/// A value as a message shows it: JSON, non-UTF-8 bytes replaced, cut short.
std::string shown(const nlohmann::json& value) {
  return printableText(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 80);
}

/// The moment's fields, read one by one; the first bad one is the moment's error.
class MomentFields {
 public:
  explicit MomentFields(const nlohmann::json& entry) : entry_(entry) {}

  Status text(const char* key, std::string& out, std::size_t max_bytes, bool required) const {
    const auto found = entry_.find(key);
    if (found == entry_.end()) {
      return required ? Status{Error{"\"" + std::string(key) + "\" is missing"}} : Status{};
    }
    if (!found->is_string()) {
      return Error{"\"" + std::string(key) + "\" must be text, got " + shown(*found)};
    }
    const std::string& value = found->get_ref<const std::string&>();
    if (value.size() > max_bytes) {
      return Error{"\"" + std::string(key) + "\" is " + std::to_string(value.size()) +
                   " bytes, more than " + std::to_string(max_bytes)};
    }
    if (required && value.empty()) return Error{"\"" + std::string(key) + "\" is empty"};
    out = value;
    return {};
  }

  template <typename T>
  Status number(const char* key, T& out, std::int64_t lowest, std::int64_t highest) const {
    const auto found = entry_.find(key);
    if (found == entry_.end()) return {};
    const bool whole = found->is_number_integer() &&
                       !(found->is_number_unsigned() &&
                         found->get<std::uint64_t>() > static_cast<std::uint64_t>(highest));
    if (!whole || found->get<std::int64_t>() < lowest || found->get<std::int64_t>() > highest) {
      return Error{"\"" + std::string(key) + "\" must be a whole number from " +
                   std::to_string(lowest) + " to " + std::to_string(highest) + ", got " +
                   shown(*found)};
    }
    out = static_cast<T>(found->get<std::int64_t>());
    return {};
  }

  Status flag(const char* key, bool& out) const {
    const auto found = entry_.find(key);
    if (found == entry_.end()) return {};
    if (!found->is_boolean()) {
      return Error{"\"" + std::string(key) + "\" must be true or false, got " + shown(*found)};
    }
    out = found->get<bool>();
    return {};
  }

 private:
  const nlohmann::json& entry_;
};

/// What makes a moment playable whatever its run holds: a view there is, one input at most.
Status checkMoment(const LessonMoment& m) {
  if (m.run.empty()) return Error{"\"run\" is empty"};
  if (std::find(kLessonViews.begin(), kLessonViews.end(), m.view) == kLessonViews.end()) {
    std::string views;
    for (const std::string& v : kLessonViews) views += (views.empty() ? "" : ", ") + v;
    return Error{"\"view\" must be one of " + views + ", got \"" + printableText(m.view, 40) +
                 "\""};
  }
  if (m.sample >= 0 && !m.text.empty()) {
    return Error{"give a \"sample\" or a \"text\", not both"};
  }
  if (!m.pair_text.empty() && m.text.empty()) {
    return Error{"\"pair_text\" is the second of a pair: it needs a \"text\""};
  }
  return {};
}

Expected<LessonMoment> readMoment(const nlohmann::json& entry) {
  if (!entry.is_object()) return Error{"is not an object but " + shown(entry)};
  const MomentFields fields(entry);
  LessonMoment m;
  for (const Status& s :
       {fields.text("run", m.run, kMaxPathBytes, true), fields.number("step", m.step, -1, kMaxStep),
        fields.text("view", m.view, kMaxShortBytes, false),
        fields.number("sample", m.sample, -1, kMaxIndex),
        fields.text("text", m.text, kMaxInputBytes, false),
        fields.text("pair_text", m.pair_text, kMaxInputBytes, false),
        fields.text("group", m.group, kMaxShortBytes, false),
        fields.number("layer", m.layer, 0, kMaxLayerOrHead),
        fields.number("head", m.head, 0, kMaxLayerOrHead),
        fields.number("query", m.query, -1, kMaxIndex),
        fields.text("question", m.question, kMaxShortBytes, false),
        fields.flag("hidden", m.hidden)}) {
    if (!s.ok()) return Error{s.error()};
  }
  if (Status s = checkMoment(m); !s.ok()) return Error{s.error()};
  return m;
}

/// The name of moment `index` as written, its question read when it has a readable one.
std::string momentName(std::size_t index, const nlohmann::json& entry) {
  const auto question = entry.is_object() ? entry.find("question") : entry.end();
  const bool readable = entry.is_object() && question != entry.end() && question->is_string();
  return lessonMomentName(index, readable ? question->get<std::string>() : std::string());
}

nlohmann::json momentJson(const LessonMoment& m) {
  nlohmann::json j = {{"run", m.run},   {"step", m.step},   {"view", m.view},    {"layer", m.layer},
                      {"head", m.head}, {"query", m.query}, {"hidden", m.hidden}};
  if (m.sample >= 0) j["sample"] = m.sample;
  if (!m.text.empty()) j["text"] = m.text;
  if (!m.pair_text.empty()) j["pair_text"] = m.pair_text;
  if (!m.group.empty()) j["group"] = m.group;
  if (!m.question.empty()) j["question"] = m.question;
  return j;
}

}  // namespace

Expected<LessonRead> readLesson(const std::string& path) {
  Expected<nlohmann::json> json = readJsonFile(path, {kMaxLessonBytes, 8});
  if (!json.ok()) return Error{json.error()};
  if (!json->is_object()) return Error{path + ": not a lesson (an object with \"moments\")"};
  const auto format = json->find("format");
  if (format == json->end() || !format->is_number_integer() ||
      format->get<std::int64_t>() != kLessonFormat) {
    return Error{path + ": a lesson of format " + std::to_string(kLessonFormat) +
                 " has \"format\": " + std::to_string(kLessonFormat) + ", this one " +
                 (format == json->end() ? std::string("has none") : shown(*format))};
  }
  const auto moments = json->find("moments");
  if (moments == json->end() || !moments->is_array()) {
    return Error{path + ": no \"moments\" list"};
  }
  if (moments->size() > kMaxLessonMoments) {
    return Error{path + ": " + std::to_string(moments->size()) + " moments, more than the " +
                 std::to_string(kMaxLessonMoments) + " a lesson holds"};
  }
  LessonRead read;
  const auto title = json->find("title");
  if (title != json->end() && title->is_string()) {
    read.lesson.title = printableText(title->get<std::string>(), kMaxShortBytes);
  }
  for (std::size_t i = 0; i < moments->size(); ++i) {
    const nlohmann::json& entry = (*moments)[i];
    Expected<LessonMoment> moment = readMoment(entry);
    if (moment.ok()) {
      read.lesson.moments.push_back(std::move(*moment));
      read.positions.push_back(i);
    } else {
      read.skipped.push_back(path + ": " + momentName(i, entry) + ": " + moment.error() +
                             "; skipped");
    }
  }
  return read;
}

std::string LessonRead::momentName(std::size_t index) const {
  const std::size_t position = index < positions.size() ? positions[index] : index;
  return lessonMomentName(position,
                          index < lesson.moments.size() ? lesson.moments[index].question : "");
}

std::string lessonMomentName(std::size_t index, const std::string& question) {
  std::string name = "moment " + std::to_string(index + 1);
  if (!question.empty()) name += " (\"" + printableText(question, 40) + "\")";
  return name;
}

std::string lessonRunPath(const std::string& lesson_path, const LessonMoment& moment) {
  const std::filesystem::path run(moment.run);
  if (run.is_absolute()) return run.lexically_normal().string();
  return (std::filesystem::path(lesson_path).parent_path() / run).lexically_normal().string();
}

Status writeLesson(const std::string& path, const Lesson& lesson) {
  if (lesson.moments.size() > kMaxLessonMoments) {
    return Error{path + ": a lesson holds at most " + std::to_string(kMaxLessonMoments) +
                 " moments"};
  }
  nlohmann::json moments = nlohmann::json::array();
  for (std::size_t i = 0; i < lesson.moments.size(); ++i) {
    nlohmann::json entry = momentJson(lesson.moments[i]);
    // What would not read back (a field too long, a view unknown) is refused now, by the
    // reader's own rules: saved, it would be skipped at the next opening and then lost.
    if (Expected<LessonMoment> back = readMoment(entry); !back.ok()) {
      return Error{path + ": moment " + std::to_string(i + 1) + ": " + back.error()};
    }
    moments.push_back(std::move(entry));
  }
  return writeJsonFile(path, nlohmann::json{{"format", kLessonFormat},
                                            {"title", lesson.title},
                                            {"moments", std::move(moments)}});
}

}  // namespace ascope
