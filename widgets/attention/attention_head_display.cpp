#include "widgets/attention/attention_head_display.h"

#include "widgets/common/plot_theme.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ascope {
namespace {

// The largest of v[0..n) and `start`; NaN is never larger. Eight independent maxima: one running
// maximum waits for every comparison in turn, and a float reduction is never reordered into
// vector instructions by the compiler on its own. This runs over every weight of each snapshot.
float maxOf(const float* v, int n, float start) {
  constexpr int kLanes = 8;
  float lanes[kLanes];
  for (float& lane : lanes) lane = start;
  int i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; ++k) lanes[k] = v[i + k] > lanes[k] ? v[i + k] : lanes[k];
  float best = start;
  for (float lane : lanes) best = lane > best ? lane : best;
  for (; i < n; ++i) best = v[i] > best ? v[i] : best;
  return best;
}

}  // namespace

AttentionHeadDisplay::AttentionHeadDisplay(AttentionColorScale scale, double run_max_weight,
                                           bool causal, QStringList row_predictions)
    : scale_(scale),
      run_max_(run_max_weight),
      causal_(causal),
      row_predictions_(std::move(row_predictions)) {}

bool AttentionHeadDisplay::isMasked(const LabeledMatrix& head, int row, int col) const {
  return (causal_ && col > row) || std::isnan(head.at(row, col));
}

bool AttentionHeadDisplay::hasMaskedCells(const LabeledMatrix& head) const {
  if (!head.isValid()) return false;
  if (causal_ && head.cols > 1) return true;
  // No early exit: a plain pass over the values vectorises, a search for the first NaN does not.
  bool nan = false;
  for (float v : head.values) nan |= v != v;
  return nan;
}

AttentionHeadDisplay AttentionHeadDisplay::withHeadRunMaxima(std::vector<double> maxima) const {
  AttentionHeadDisplay copy = *this;
  copy.head_run_max_ = std::move(maxima);
  return copy;
}

AttentionHeadDisplay AttentionHeadDisplay::forHead(int head) const {
  AttentionHeadDisplay copy = *this;
  copy.run_max_ = runTopOf(head);
  copy.head_run_max_.clear();
  return copy;
}

double AttentionHeadDisplay::runTopOf(int index) const {
  if (index < 0 || index >= static_cast<int>(head_run_max_.size())) return run_max_;
  const double top = head_run_max_[static_cast<size_t>(index)];
  return top > 0.0 ? top : run_max_;
}

bool AttentionHeadDisplay::headsHaveOwnRanges() const {
  return scale_ == AttentionColorScale::PerHead ||
         (scale_ == AttentionColorScale::Run && !head_run_max_.empty());
}

QCPRange AttentionHeadDisplay::colorRange(const LabeledMatrix& head, int index) const {
  double top = 1.0;
  switch (scale_) {
    case AttentionColorScale::Fixed:
    case AttentionColorScale::PerRow:
      break;
    case AttentionColorScale::Run:
      top = runTopOf(index);
      break;
    case AttentionColorScale::PerHead:
      top = informativeMax(head, causal_);
      break;
  }
  return QCPRange(0.0, top > 0.0 ? top : 1.0);
}

LabeledMatrix AttentionHeadDisplay::displayMatrix(const LabeledMatrix& head, int pool) const {
  if (!head.isValid()) return {};
  pool = std::max(1, pool);
  const int out_rows = (head.rows + pool - 1) / pool;
  const int out_cols = (head.cols + pool - 1) / pool;
  // Cells no visible value reaches stay at -inf and become NaN (masked) at the end; NaN inputs
  // never win a `>` comparison, so they are skipped without a test per cell.
  constexpr float kUnset = -std::numeric_limits<float>::infinity();
  LabeledMatrix out(out_rows, out_cols, kUnset);
  for (int r = 0; r < head.rows; ++r) {
    const float* in = head.values.data() + static_cast<size_t>(r) * head.cols;
    float* dst = out.values.data() + static_cast<size_t>(r / pool) * out_cols;
    const int end = causal_ ? std::min(head.cols, r + 1) : head.cols;
    float factor = 1.0f;
    if (scale_ == AttentionColorScale::PerRow) {
      const float row_max = maxOf(in, end, 0.0f);
      if (row_max > 0.0f && std::isfinite(row_max)) factor = 1.0f / row_max;
    }
    if (pool == 1) {
      for (int c = 0; c < end; ++c) dst[c] = in[c] * factor;
      continue;
    }
    for (int block = 0, c = 0; c < end; ++block) {
      const int stop = std::min(end, c + pool);
      float best = dst[block];
      for (; c < stop; ++c) {
        const float v = in[c] * factor;
        best = v > best ? v : best;
      }
      dst[block] = best;
    }
  }
  for (float& v : out.values)
    if (v == kUnset) v = std::numeric_limits<float>::quiet_NaN();
  if (pool == 1) {
    out.col_labels = head.col_labels;
    if (row_predictions_.isEmpty()) {
      out.row_labels = head.row_labels;
    } else {
      out.row_labels.reserve(head.rows);
      for (int r = 0; r < head.rows; ++r) out.row_labels << rowLabel(head, r);
    }
  }
  return out;
}

QString AttentionHeadDisplay::rowLabel(const LabeledMatrix& head, int row) const {
  if (row < 0 || row >= row_predictions_.size()) return head.rowLabel(row);
  return QStringLiteral("%1 → %2").arg(head.rowLabel(row), row_predictions_[row]);
}

QString AttentionHeadDisplay::rowTitle(const QString& query_title) const {
  return row_predictions_.isEmpty() ? query_title : tr("fed token → predicts");
}

QString AttentionHeadDisplay::cellText(const LabeledMatrix& head, int row, int col) const {
  QString query = head.rowLabel(row);
  if (row < row_predictions_.size())
    query = tr("%1 (predicts %2)").arg(query, row_predictions_[row]);
  QString value;
  if (causal_ && col > row)
    value = tr("masked (causal)");
  else if (std::isnan(head.at(row, col)))
    value = tr("masked");
  else
    value = formatWeight(head.at(row, col));
  return QStringLiteral("%1 → %2: %3").arg(query, head.colLabel(col), value);
}

QString AttentionHeadDisplay::scaleLabel(bool several_heads) const {
  switch (scale_) {
    case AttentionColorScale::Fixed:
      return tr("attention weight · fixed 0–1");
    case AttentionColorScale::Run:
      return several_heads && !head_run_max_.empty() ? tr("weight ÷ its head's run max")
                                                     : tr("attention weight · run scale");
    case AttentionColorScale::PerHead:
      return several_heads ? tr("weight ÷ max of its head") : tr("attention weight · head scale");
    case AttentionColorScale::PerRow:
      return tr("weight ÷ max of its row");
  }
  return {};
}

QString AttentionHeadDisplay::formatWeight(double weight) {
  if (weight == 0.0 || std::abs(weight) >= 0.01) return QString::number(weight, 'f', 2);
  return QString::number(weight, 'g', 2);
}

QColor AttentionHeadDisplay::maskedColor(const PlotTheme& theme) {
  return theme.dark ? QColor(0x6e, 0x6e, 0x6e) : QColor(0xb3, 0xb3, 0xb3);
}

QCPColorGradient AttentionHeadDisplay::gradient(const PlotTheme& theme) {
  QCPColorGradient g = PlotTheme::sequentialGradient();
  g.setNanHandling(QCPColorGradient::nhNanColor);
  g.setNanColor(maskedColor(theme));
  return g;
}

double AttentionHeadDisplay::informativeMax(const LabeledMatrix& head, bool causal) {
  if (!head.isValid()) return 0.0;
  float best = 0.0f;
  const int first_row = causal && head.rows > 1 ? 1 : 0;
  for (int r = first_row; r < head.rows; ++r) {
    const float* in = head.values.data() + static_cast<size_t>(r) * head.cols;
    best = maxOf(in, causal ? std::min(head.cols, r + 1) : head.cols, best);
  }
  return std::isfinite(best) ? best : 0.0;
}

}  // namespace ascope
