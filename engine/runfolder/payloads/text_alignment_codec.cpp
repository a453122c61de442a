// TextAlignment in a snapshot's sample: "alignment", an array of columns [edit, reference
// character, answer character], the edit one of "=" (match), "x" (substitute), "-" (delete),
// "+" (insert).
#include "engine/runfolder/payloads/payload_codec.h"

#include "engine/vocabulary/payloads/text_alignment.h"

namespace ascope {
namespace {

/// One character of a string, as UTF-8: at most four bytes.
constexpr std::size_t kMaxCharacterBytes = 4;

}  // namespace

PayloadCodec textAlignmentCodec() {
  PayloadCodec codec;
  codec.kind = TextAlignment::kKind;
  codec.encode = [](const Payload& payload, nlohmann::json& object) {
    const auto& a = static_cast<const TextAlignment&>(payload);
    nlohmann::json columns = nlohmann::json::array();
    for (const TextAlignment::Column& c : a.columns) {
      columns.push_back({std::string(1, static_cast<char>(c.edit)), c.reference, c.answer});
    }
    object["alignment"] = std::move(columns);
  };
  codec.decode = [](const nlohmann::json& object,
                    const MsgpackFields& fields) -> std::shared_ptr<const Payload> {
    if (!object.contains("alignment")) return nullptr;
    const nlohmann::json& columns = object.at("alignment");
    const auto max_columns = static_cast<std::size_t>(MsgpackFields::kMaxSide);
    if (!columns.is_array() || columns.size() > max_columns) {
      fields.refuse("alignment is not an array of at most " + std::to_string(max_columns) +
                    " columns");
    }
    TextAlignment a;
    a.columns.reserve(columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::string at = "alignment[" + std::to_string(i) + "]";
      const nlohmann::json& c = columns[i];
      if (!c.is_array() || c.size() != 3) fields.refuse(at + " is not [edit, reference, answer]");
      const std::string edit = fields.text(c[0], at + "[0]", 1);
      TextAlignment::Column column;
      column.reference = fields.text(c[1], at + "[1]", kMaxCharacterBytes);
      column.answer = fields.text(c[2], at + "[2]", kMaxCharacterBytes);
      const bool has_reference = !column.reference.empty(), has_answer = !column.answer.empty();
      if (edit == "=" && has_reference && column.reference == column.answer) {
        column.edit = TextAlignment::Edit::kMatch;
      } else if (edit == "x" && has_reference && has_answer) {
        column.edit = TextAlignment::Edit::kSubstitute;
      } else if (edit == "-" && has_reference && !has_answer) {
        column.edit = TextAlignment::Edit::kDelete;
      } else if (edit == "+" && !has_reference && has_answer) {
        column.edit = TextAlignment::Edit::kInsert;
      } else {
        fields.refuse(at + " is not a match, substitution, deletion or insertion");
      }
      a.columns.push_back(std::move(column));
    }
    return makePayload(std::move(a));
  };
  return codec;
}

}  // namespace ascope
