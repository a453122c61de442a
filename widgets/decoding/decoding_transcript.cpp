#include "widgets/decoding/decoding_transcript.h"

#include <algorithm>
#include <cmath>

namespace ascope {
namespace {

const QString kDecoderSelf = QStringLiteral("decoder self");
const QString kCross = QStringLiteral("cross");

const LabeledMatrix* firstMatrix(const AttentionPlotGroup* g, int layer) {
  if (!g || layer < 0 || layer >= g->layerCount()) return nullptr;
  for (const LabeledMatrix& m : g->layers[static_cast<size_t>(layer)])
    if (m.isValid()) return &m;
  return nullptr;
}

// NaN-aware mean: a head without a value for a key does not pull the mean towards zero.
AttentionRow attentionRow(const AttentionPlotGroup* g, int layer, int head, int row) {
  AttentionRow out;
  const LabeledMatrix* first = firstMatrix(g, layer);
  if (!first || row < 0 || row >= first->rows) return out;
  const auto& heads = g->layers[static_cast<size_t>(layer)];
  std::vector<const LabeledMatrix*> used;
  for (int h = 0; h < static_cast<int>(heads.size()); ++h) {
    const LabeledMatrix& m = heads[static_cast<size_t>(h)];
    if ((head == DecodingTranscript::kAverageHeads || head == h) && m.isValid() &&
        m.rows == first->rows && m.cols == first->cols)
      used.push_back(&m);
  }
  if (used.empty()) return out;
  out.values.assign(static_cast<size_t>(first->cols), std::nanf(""));
  for (int c = 0; c < first->cols; ++c) {
    double sum = 0;
    int count = 0;
    for (const LabeledMatrix* m : used) {
      const float v = m->at(row, c);
      if (!std::isfinite(v)) continue;
      sum += v;
      ++count;
    }
    if (count > 0) out.values[static_cast<size_t>(c)] = static_cast<float>(sum / count);
  }
  for (int c = 0; c < first->cols; ++c) out.labels << first->colLabel(c);
  return out;
}

}  // namespace

const DecodingCandidates& DecodingTranscript::candidates(int step) const {
  return data_->decoding[static_cast<size_t>(step)];
}

QString DecodingTranscript::fedToken(int step) const {
  // Row labels are the tokens fed to the decoder; the same in every layer and head.
  for (const QString& name : {kDecoderSelf, kCross}) {
    const LabeledMatrix* m = firstMatrix(group(name), 0);
    if (m && step >= 0 && step < m->row_labels.size()) return m->row_labels[step];
  }
  // Greedy decoding feeds back what it predicted one step earlier.
  if (step > 0) return predictedToken(step - 1);
  return QString::number(step);
}

QString DecodingTranscript::predictedToken(int step) const {
  for (const QString& name : {kDecoderSelf, kCross}) {
    const AttentionPlotGroup* g = group(name);
    if (g && step >= 0 && step < g->row_predictions.size()) return g->row_predictions[step];
  }
  if (step >= 0 && step < stepCount()) return candidates(step).tokens.value(0);
  return QString();
}

int DecodingTranscript::layerCount() const {
  const AttentionPlotGroup* self = group(kDecoderSelf);
  const AttentionPlotGroup* cross = group(kCross);
  return std::max(self ? self->layerCount() : 0, cross ? cross->layerCount() : 0);
}

int DecodingTranscript::headCount(int layer) const {
  const AttentionPlotGroup* self = group(kDecoderSelf);
  const AttentionPlotGroup* cross = group(kCross);
  return std::max(self ? self->headCount(layer) : 0, cross ? cross->headCount(layer) : 0);
}

AttentionRow DecodingTranscript::selfAttentionRow(int layer, int head, int step) const {
  return attentionRow(group(kDecoderSelf), layer, head, step);
}

AttentionRow DecodingTranscript::crossAttentionRow(int layer, int head, int step) const {
  return attentionRow(group(kCross), layer, head, step);
}

const AttentionPlotGroup* DecodingTranscript::group(const QString& name) const {
  for (const AttentionPlotGroup& g : data_->groups)
    if (g.name == name) return &g;
  return nullptr;
}

}  // namespace ascope
