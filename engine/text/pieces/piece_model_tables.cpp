#include "engine/text/pieces/piece_model_tables.h"

#include <cstdint>
#include <optional>

namespace ascope {
namespace {

constexpr int kPieces = 1;
constexpr int kPieceText = 1;
constexpr int kNormalizerSpec = 3;
constexpr int kDenormalizerSpec = 5;
constexpr int kCharsMap = 2;
constexpr int kName = 1;

enum WireType : int { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

/// One field of a message: its number, its wire type and, for a length-delimited one, its bytes.
struct WireField {
  std::uint64_t number = 0;
  int type = 0;
  std::string_view bytes;
  std::size_t at = 0;  ///< offset of the field's key in the message
};

/// Reads fields one after another, each checked against what is left of the message.
class WireReader {
 public:
  WireReader(std::string_view message, std::size_t base) : message_(message), base_(base) {}

  bool done() const { return at_ >= message_.size(); }

  /// The next field, or an error naming the offset at which the message stops making sense.
  Expected<WireField> next() {
    WireField field;
    field.at = base_ + at_;
    const std::optional<std::uint64_t> key = varint();
    if (!key) return Error{"a field key at byte " + std::to_string(field.at) + " is cut off"};
    field.number = *key >> 3;
    field.type = static_cast<int>(*key & 7);
    if (field.number == 0) return Error{"field 0 at byte " + std::to_string(field.at)};
    switch (field.type) {
      case kVarint:
        if (!varint()) return cutOff(field);
        return field;
      case kFixed64:
        return skip(field, 8);
      case kFixed32:
        return skip(field, 4);
      case kLengthDelimited: {
        const std::optional<std::uint64_t> length = varint();
        if (!length || *length > message_.size() - at_) return cutOff(field);
        field.bytes = message_.substr(at_, static_cast<std::size_t>(*length));
        at_ += static_cast<std::size_t>(*length);
        return field;
      }
      default:
        return Error{"field " + std::to_string(field.number) + " at byte " +
                     std::to_string(field.at) + " has wire type " + std::to_string(field.type) +
                     ", which no SentencePiece model uses"};
    }
  }

 private:
  std::optional<std::uint64_t> varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= message_.size()) return std::nullopt;
      const auto byte = static_cast<unsigned char>(message_[at_++]);
      value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return std::nullopt;  // more than ten bytes: not a varint
  }

  Expected<WireField> skip(WireField field, std::size_t size) {
    if (size > message_.size() - at_) return cutOff(field);
    at_ += size;
    return field;
  }

  static Error cutOff(const WireField& field) {
    return Error{"field " + std::to_string(field.number) + " at byte " + std::to_string(field.at) +
                 " runs past the end"};
  }

  std::string_view message_;
  std::size_t base_ = 0;  // where message_ starts in the file, for the offsets in messages
  std::size_t at_ = 0;
};

/// A NormalizerSpec's rule name and charsmap; `base` is its offset in the file.
Status readSpec(std::string_view spec, std::size_t base, std::string* rule, std::string* charsmap) {
  WireReader reader(spec, base);
  while (!reader.done()) {
    Expected<WireField> field = reader.next();
    if (!field.ok()) return Error{field.error()};
    if (field->type != kLengthDelimited) continue;
    if (field->number == kName) rule->assign(field->bytes);
    // Protobuf keeps the last of a repeated scalar field, as SentencePiece would.
    if (field->number == kCharsMap) charsmap->assign(field->bytes);
  }
  return {};
}

/// Whether the SentencePiece message `piece` has text a trie can hold: not empty (protobuf: a
/// missing field is empty; the last of a repeated one counts) and without a NUL byte; `base` is
/// its offset in the file.
Expected<bool> pieceIsUsable(std::string_view piece, std::size_t base) {
  WireReader reader(piece, base);
  std::string_view text;
  while (!reader.done()) {
    Expected<WireField> field = reader.next();
    if (!field.ok()) return Error{field.error()};
    if (field->number == kPieceText && field->type == kLengthDelimited) text = field->bytes;
  }
  return !text.empty() && text.find('\0') == std::string_view::npos;
}

}  // namespace

Expected<PieceModelTables> readPieceModelTables(std::string_view bytes) {
  PieceModelTables tables;
  WireReader reader(bytes, 0);
  while (!reader.done()) {
    Expected<WireField> field = reader.next();
    if (!field.ok()) return Error{field.error()};
    if (field->number == kPieces) {
      if (field->type != kLengthDelimited) {
        return Error{"the piece at byte " + std::to_string(field->at) + " is not a message"};
      }
      const std::size_t base = static_cast<std::size_t>(field->bytes.data() - bytes.data());
      Expected<bool> usable = pieceIsUsable(field->bytes, base);
      if (!usable.ok()) return Error{usable.error()};
      if (!*usable && !tables.unusable_piece) tables.unusable_piece = tables.pieces;
      ++tables.pieces;
      continue;
    }
    if (field->number != kNormalizerSpec && field->number != kDenormalizerSpec) continue;
    const bool normalizer = field->number == kNormalizerSpec;
    if (field->type != kLengthDelimited) {
      return Error{std::string(normalizer ? "the normaliser" : "the denormaliser") + " at byte " +
                   std::to_string(field->at) + " is not a message"};
    }
    // Protobuf merges a message field given twice; a model of ours has each once.
    bool& seen = normalizer ? tables.has_normalizer : tables.has_denormalizer;
    if (seen) {
      return Error{std::string(normalizer ? "a second normaliser" : "a second denormaliser") +
                   " at byte " + std::to_string(field->at)};
    }
    seen = true;
    const std::size_t base = static_cast<std::size_t>(field->bytes.data() - bytes.data());
    std::string ignored_rule;
    const Status read =
        normalizer ? readSpec(field->bytes, base, &tables.normalizer_rule, &tables.normalizer)
                   : readSpec(field->bytes, base, &ignored_rule, &tables.denormalizer);
    if (!read.ok()) return Error{read.error()};
  }
  return tables;
}

}  // namespace ascope
