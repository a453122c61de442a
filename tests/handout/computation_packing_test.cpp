// An explained head in the handout's document (engine/handout/handout_computation_packing.h):
// every stage carried in its shape, the numbers the page computes with bit for bit the model's,
// the chosen cell's breakdown breakDownCell's own, masked cells marked, and the strongest cell
// the page opens at when none is asked for.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/analysis/attention_cell_breakdown.h"
#include "engine/core/half_float.h"
#include "engine/handout/base64.h"
#include "engine/handout/handout_computation.h"
#include "engine/handout/handout_packer.h"
#include "engine/handout/handout_writer.h"
#include "tests/handout/document_check.h"
#include "tests/handout/synthetic_computation.h"
#include "tests/handout/synthetic_run.h"

namespace ascope {
namespace {

using nlohmann::json;

std::vector<std::uint8_t> bytesOf(const json& text) {
  const std::optional<std::string> bytes = base64Decode(text.get<std::string>());
  EXPECT_TRUE(bytes.has_value());
  return bytes ? std::vector<std::uint8_t>(bytes->begin(), bytes->end())
               : std::vector<std::uint8_t>();
}

/// A packed float32 matrix as the page reads it.
ComputationMatrix float32Matrix(const json& packed) {
  ComputationMatrix m{packed["rows"], packed["cols"], {}};
  const std::vector<std::uint8_t> bytes = bytesOf(packed["values"]);
  EXPECT_EQ(bytes.size(), static_cast<std::size_t>(m.rows) * m.cols * 4);
  m.values.resize(bytes.size() / 4);
  std::memcpy(m.values.data(), bytes.data(), bytes.size());  // little-endian, as this machine
  return m;
}

json documentWith(const std::vector<HandoutComputation>& computations) {
  HandoutData data;
  HandoutGroup encoder, decoder;
  encoder.key = "encoder";
  decoder.key = "decoder self";
  decoder.title = "decoder self";
  decoder.causal = true;
  data.groups = {encoder, decoder};
  HandoutPacker packer;
  packer.packComputations(computations, data.groups);
  return json::parse(packer.document(data, {}, HandoutSelection{}, {}, 20));
}

TEST(HandoutComputation, StagesAreCarriedAndTheCellIsBreakDownCells) {
  const AttentionComputation c = testing::syntheticComputation();
  const json doc = documentWith({{c, 2, 1}});
  ASSERT_EQ(doc["computations"].size(), 1u);
  const json& packed = doc["computations"][0];
  EXPECT_EQ(packed["group"], 1);  // "decoder self", by the run's own name
  EXPECT_EQ(packed["group_name"], "decoder self");
  EXPECT_EQ(packed["step"], 120);
  EXPECT_EQ(packed["weights_file"], "last.pt");  // no folder of the lecturer's disk
  EXPECT_EQ(packed["sample"], 2);
  EXPECT_TRUE(packed["key_input"].is_null());  // self-attention: the query input's rows
  EXPECT_EQ(doc["labels"][packed["query_labels"].get<std::size_t>()], json(c.query_labels));

  // What the page computes with is the model's float32, bit for bit.
  for (const char* stage : {"q", "k", "logits", "scaled", "weights"}) {
    const ComputationMatrix m = float32Matrix(packed[stage]);
    const ComputationMatrix& original = stage == std::string("q")        ? c.q
                                        : stage == std::string("k")      ? c.k
                                        : stage == std::string("logits") ? c.logits
                                        : stage == std::string("scaled") ? c.scaled
                                                                         : c.weights;
    EXPECT_EQ(m.values, original.values) << stage;
  }
  // What it only shows is binary16: within its half unit in the last place.
  const std::vector<std::uint8_t> halves = bytesOf(packed["output"]["values"]);
  const std::vector<float> output = unpackHalves(halves);
  ASSERT_EQ(output.size(), c.output.values.size());
  for (std::size_t i = 0; i < output.size(); ++i) {
    EXPECT_NEAR(output[i], c.output.values[i], std::abs(c.output.values[i]) / 2048 + 1e-7) << i;
  }
  EXPECT_EQ(bytesOf(packed["masked"]), c.masked);

  // The packed breakdown is breakDownCell's; the page's arithmetic on the packed q and k gives it.
  const Expected<AttentionCellBreakdown> b = breakDownCell(c, 2, 1);
  ASSERT_TRUE(b.ok()) << b.error();
  const json& cell = packed["cell"];
  EXPECT_EQ(cell["query"], 2);
  EXPECT_EQ(cell["key"], 1);
  EXPECT_EQ(cell["masked"], false);
  EXPECT_EQ(cell["products"].get<std::vector<double>>(), b->products);
  EXPECT_EQ(cell["sum"].get<double>(), b->sum);
  EXPECT_EQ(cell["logit"].get<double>(), b->logit);
  EXPECT_EQ(cell["scaled"].get<double>(), b->scaled);
  EXPECT_EQ(cell["weight"].get<double>(), b->weight);
  EXPECT_EQ(cell["rank_before"], b->rank_before);
  EXPECT_EQ(cell["rank_after"], b->rank_after);
  EXPECT_EQ(cell["unmasked_keys"], 3);
  EXPECT_EQ(cell["parts"].get<std::vector<double>>(),
            std::vector<double>(b->parts.begin(), b->parts.end()));
  const ComputationMatrix q = float32Matrix(packed["q"]), k = float32Matrix(packed["k"]);
  double sum = 0;
  for (int d = 0; d < q.cols; ++d) {
    const double product = static_cast<double>(q.at(2, d)) * k.at(1, d);
    EXPECT_EQ(product, b->products[static_cast<std::size_t>(d)]) << d;
    sum += product;
  }
  EXPECT_EQ(sum, b->sum);
  const json& split = packed["split"];
  ASSERT_TRUE(split.is_object());
  EXPECT_EQ(float32Matrix(split["k_positions"]).values, c.split.k_positions.values);
}

TEST(HandoutComputation, AMaskedCellIsSaidMaskedAndTheDefaultCellIsTheStrongestWithAChoice) {
  AttentionComputation c = testing::syntheticComputation();
  const json masked = documentWith({{c, 0, 3}})["computations"][0]["cell"];
  EXPECT_EQ(masked["masked"], true);
  EXPECT_EQ(masked["rank_before"], 0);
  EXPECT_EQ(masked["weight"], 0.0);

  // Row 0 of a causal head has one key, weight 1: no choice, not the cell to open at.
  const ComputationCell strongest = strongestCell(c);
  EXPECT_GT(strongest.query, 0);
  float best = 0;
  for (int q = 1; q < c.weights.rows; ++q) {
    for (int k = 0; k <= q; ++k) best = std::max(best, c.weights.at(q, k));
  }
  EXPECT_EQ(c.weights.at(strongest.query, strongest.key), best);
  EXPECT_FALSE(c.isMasked(strongest.query, strongest.key));
  c.masked.assign(c.masked.size(), 1);
  EXPECT_EQ(strongestCell(c).query, -1);

  // Cross-attention carries its keys' own input; no head explained, no section.
  AttentionComputation cross = testing::syntheticComputation();
  cross.group = "cross";
  cross.key_input.values[0] += 1;
  const json packed = documentWith({{cross, 1, 0}})["computations"][0];
  EXPECT_TRUE(packed["key_input"].is_object());
  EXPECT_EQ(packed["group"], -1);  // a group the run stored no snapshot of
  EXPECT_FALSE(documentWith({}).contains("computations"));
}

// Through the writer: the head is carried by its group's index in the page's groups, the page
// holds to the contract, and its bytes count towards the limit (the refusal names them).
TEST(HandoutComputation, AWrittenPageCarriesItAndCountsItsBytes) {
  testing::TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  HandoutOptions options;
  AttentionComputation c = testing::syntheticComputation();
  c.group = "encoder";
  options.computations = {{c, 3, 2}};
  Expected<HandoutSummary> written =
      writeHandout(tmp.path("run"), tmp.path("lecture.html"), options);
  ASSERT_TRUE(written.ok()) << written.error();
  const std::string document = testing::handoutDataOf(testing::fileText(tmp.path("lecture.html")));
  const testing::DocumentCheck check = testing::checkHandoutDocument(document, tmp.path());
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const json doc = json::parse(document);
  const json& group = doc["groups"][doc["computations"][0]["group"].get<std::size_t>()];
  EXPECT_EQ(group["title"], "encoder");  // the synthetic run's own name of it, untitled

  options.max_mb = kMinHandoutMaxMb;
  Expected<HandoutSummary> refused = writeHandout(tmp.path("run"), tmp.path("small.html"), options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("and its 1 explained heads ("), std::string::npos)
      << refused.error();
}

}  // namespace
}  // namespace ascope
