// A run folder's pieces file on arbitrary bytes: SentencePieceModel::fromBytes (the size bound,
// the protobuf tables, SentencePiece's own parse, the special pieces), then, for a model it takes,
// encode, decode and the labels over text from the same input. A normalisation table of random
// bytes under a valid size crashed libsentencepiece inside encode; fromBytes must refuse every
// model that could. Input: one byte n, n bytes of text, the model's bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/printable_text.h"
#include "engine/text/pieces/sentence_piece_model.h"
#include "fuzz_check.h"

// Without the SentencePiece library every input would be refused before it is parsed: say so.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!ascope::SentencePieceModel::available()) {
    std::fprintf(stderr, "piece_model_fuzzer: this build cannot open its SentencePiece library\n");
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::SentencePieceModel;
  using ascope::fuzz::check;
  if (size < 1) return 0;
  const std::size_t text_size = std::min<std::size_t>(data[0], size - 1);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), text_size);
  const std::string bytes(reinterpret_cast<const char*>(data + 1 + text_size),
                          size - 1 - text_size);

  ascope::Expected<SentencePieceModel> model = SentencePieceModel::fromBytes(bytes, "pieces.model");
  // PIECE_MODEL_FUZZER_VERBOSE=1 says what became of each input (to check a seed corpus).
  static const bool verbose = std::getenv("PIECE_MODEL_FUZZER_VERBOSE") != nullptr;
  if (verbose) {
    std::fprintf(stderr, "%s\n", model.ok() ? "taken" : model.error().c_str());
  }
  if (!model.ok()) {
    // Every refusal names the file and quotes nothing a terminal would act on.
    check(model.error().rfind("pieces.model: ", 0) == 0);
    check(ascope::isPrintableText(model.error(), model.error().size()));
    return 0;
  }
  const auto vocab = static_cast<std::int64_t>(model->vocabSize());
  check(vocab >= 5);
  check(model->pieceOf(SentencePieceModel::kUnkId) == "[UNK]");
  for (const std::string_view sample :
       {text, std::string_view("The cat sat. Il gatto è seduto.")}) {
    const std::vector<std::int64_t> ids = model->encode(sample);
    for (const std::int64_t id : ids) {
      check(id >= 0 && id < vocab);
      model->labelOf(id);
      model->startsWord(id);
    }
    model->decode(ids);
  }
  check(model->sha256().size() == 64);
  return 0;
}
