#include "app/gui/views/computation/computation_plot_conversion.h"

#include <QFileInfo>
#include <QObject>

#include <cmath>
#include <limits>

#include "app/gui/views/attention/attention_plot_conversion.h"

namespace ascope {
namespace {

QStringList dimensionLabels(int count, const QString& prefix = {}) {
  QStringList labels;
  for (int i = 0; i < count; ++i) labels << prefix + QString::number(i);
  return labels;
}

/// `m` as a labelled matrix; cells masked in `c` are NaN when `masked` (query × key stages).
LabeledMatrix stageValues(const ComputationMatrix& m, const QStringList& rows,
                          const QStringList& cols, const AttentionComputation* masked = nullptr) {
  LabeledMatrix out(m.rows, m.cols);
  out.values.assign(m.values.begin(), m.values.end());
  if (masked != nullptr) {
    for (int r = 0; r < m.rows; ++r) {
      for (int k = 0; k < m.cols; ++k) {
        if (masked->isMasked(r, k)) out.at(r, k) = std::numeric_limits<float>::quiet_NaN();
      }
    }
  }
  if (rows.size() == m.rows) out.row_labels = rows;
  if (cols.size() == m.cols) out.col_labels = cols;
  return out;
}

QString weightsFileName(const AttentionComputation& c) {
  return QFileInfo(QString::fromStdString(c.weights_file)).fileName();
}

QString computationInputName(const AttentionComputation& c) {
  if (c.sample_index >= 0) return QObject::tr("validation sample %1").arg(c.sample_index);
  const QString input = QString::fromStdString(c.input);
  if (input.isEmpty()) return QObject::tr("your input");
  if (QFileInfo(input).isAbsolute()) return QFileInfo(input).fileName();
  return QStringLiteral("“%1”").arg(input.size() > 40 ? input.left(39) + QChar(0x2026) : input);
}

}  // namespace

ComputationPlotData toComputationPlotData(const AttentionComputation& c, const QString& answer,
                                          bool pretrained, long long shown_step) {
  ComputationPlotData data;
  data.heading = QObject::tr("%1 · layer %2 · head %3 · %4")
                     .arg(attentionGroupTitle(c.task, c.group))
                     .arg(c.layer)
                     .arg(c.head)
                     .arg(computationInputName(c));
  const QString file = weightsFileName(c);
  data.weights_note = pretrained ? QObject::tr("weights of the pretrained model %1").arg(file)
                                 : QObject::tr("weights of step %1 (%2)").arg(c.step).arg(file);
  if (!pretrained && shown_step >= 0 && shown_step != c.step) {
    data.step_warning =
        QObject::tr("weights of step %1 (%2); the shown step %3 has no stored weights")
            .arg(c.step)
            .arg(file)
            .arg(shown_step);
  }
  data.answer = answer;
  data.heads = c.heads;
  data.head = c.head;
  data.d_head = c.d_head;
  data.d_model = c.d_model;
  data.scale = c.scale;
  data.query_labels = toStringList(c.query_labels);
  data.key_labels = toStringList(c.key_labels);
  const QStringList& queries = data.query_labels;
  const QStringList& keys = data.key_labels;
  const QStringList head_dims = dimensionLabels(c.d_head);
  const QStringList model_dims = dimensionLabels(c.d_model);
  const QString query_title = QObject::tr("query token");
  const QString key_title = QObject::tr("key token");
  const QString sqrt_d = QStringLiteral("√%1").arg(c.d_head);

  // Layer input: one matrix for self-attention, the decoder's queries and the encoder's keys for
  // cross-attention.
  ComputationStage input{StageKind::Input,
                         QObject::tr("Layer input X"),
                         QStringLiteral("X"),
                         QStringLiteral("[tokens × d_model]"),
                         c.norm_first ? QObject::tr("X = LayerNorm(the layer's input rows)")
                                      : QObject::tr("X = the layer's input rows, one per token"),
                         {},
                         {}};
  const bool same_input = c.query_input.values == c.key_input.values;
  if (same_input) {
    input.matrices.push_back({QStringLiteral("X"),
                              stageValues(c.query_input, queries, model_dims),
                              QObject::tr("token"),
                              QStringLiteral("d_model"),
                              {}});
  } else {
    input.matrices.push_back({QStringLiteral("X_q"),
                              stageValues(c.query_input, queries, model_dims),
                              query_title,
                              QStringLiteral("d_model"),
                              {}});
    input.matrices.push_back({QStringLiteral("X_kv"),
                              stageValues(c.key_input, keys, model_dims),
                              key_title,
                              QStringLiteral("d_model"),
                              {}});
  }
  data.stages.push_back(std::move(input));

  ComputationStage projections{
      StageKind::Projections,
      QObject::tr("Q, K, V of head %1").arg(c.head),
      QStringLiteral("Q K V"),
      QStringLiteral("[tokens × d_head]"),
      QObject::tr("Q = X W_Q, K = X W_K, V = X W_V: head %1's %2 columns of each (+ bias)")
          .arg(c.head)
          .arg(c.d_head),
      {},
      {}};
  projections.matrices.push_back({QStringLiteral("Q"), stageValues(c.q, queries, head_dims),
                                  query_title, QStringLiteral("d_head"), QStringLiteral("q")});
  projections.matrices.push_back({QStringLiteral("K"), stageValues(c.k, keys, head_dims), key_title,
                                  QStringLiteral("d_head"), QStringLiteral("k")});
  projections.matrices.push_back({QStringLiteral("V"), stageValues(c.v, keys, head_dims), key_title,
                                  QStringLiteral("d_head"), QStringLiteral("v")});
  data.stages.push_back(std::move(projections));

  const QString outside =
      c.keys_outside > 0
          ? QObject::tr(" (%1 more keys take part without being shown)").arg(c.keys_outside)
          : QString();
  const auto query_by_key = [&](StageKind kind, const QString& title, const QString& short_title,
                                const QString& formula, const QString& name,
                                const ComputationMatrix& m) {
    ComputationStage s{kind,    title, short_title, QStringLiteral("[tokens × tokens]"),
                       formula, {},    c.masked};
    s.matrices.push_back({name, stageValues(m, queries, keys, &c), query_title, key_title, {}});
    data.stages.push_back(std::move(s));
  };
  query_by_key(StageKind::Logits, QObject::tr("Scores QKᵀ"), QStringLiteral("QKᵀ"),
               QObject::tr("QKᵀ[i, j] = q_i · k_j = Σ_d q_i[d] k_j[d]") + outside,
               QStringLiteral("QKᵀ"), c.logits);
  query_by_key(StageKind::Scaled, QObject::tr("Scaled by 1/%1").arg(sqrt_d),
               QStringLiteral("÷%1").arg(sqrt_d),
               QObject::tr("S = QKᵀ / %1 = QKᵀ × %2").arg(sqrt_d).arg(c.scale, 0, 'g', 4),
               QStringLiteral("S"), c.scaled);
  int masked = 0;
  for (std::uint8_t m : c.masked) masked += m != 0 ? 1 : 0;
  query_by_key(
      StageKind::Masked, QObject::tr("Mask"), QObject::tr("mask"),
      masked > 0
          ? QObject::tr("%1 cells masked: set to −∞, so the softmax gives them 0").arg(masked)
          : QObject::tr("no cell is masked for this input: S goes on unchanged"),
      QStringLiteral("S"), c.scaled);
  query_by_key(StageKind::Weights, QObject::tr("Softmax A = softmax(S)"), QObject::tr("softmax"),
               QObject::tr("A[i, j] = exp(S[i, j]) / Σ_j exp(S[i, j]): each row sums to 1"),
               QStringLiteral("A"), c.weights);

  // Stages with a row per query: this head's output, every head's side by side, the projection.
  const auto query_rows = [&](StageKind kind, const QString& title, const QString& short_title,
                              const QString& formula, const QString& name,
                              const ComputationMatrix& m, bool model_wide) {
    ComputationStage s{
        kind,
        title,
        short_title,
        model_wide ? QStringLiteral("[tokens × d_model]") : QStringLiteral("[tokens × d_head]"),
        formula,
        {},
        {}};
    const QString col_title = model_wide ? QStringLiteral("d_model") : QStringLiteral("d_head");
    s.matrices.push_back({name,
                          stageValues(m, queries, model_wide ? model_dims : head_dims),
                          query_title,
                          col_title,
                          {}});
    data.stages.push_back(std::move(s));
  };
  query_rows(StageKind::HeadOutput, QObject::tr("Weights · V"), QStringLiteral("A·V"),
             QObject::tr("O_%1 = A V: each row a weighted mean of V's rows").arg(c.head),
             QStringLiteral("AV"), c.head_output, false);
  query_rows(StageKind::Joined, QObject::tr("All %1 heads joined").arg(c.heads),
             QObject::tr("join"),
             QObject::tr("Concat(O_0 … O_%1): head %2 in columns %3 … %4")
                 .arg(c.heads - 1)
                 .arg(c.head)
                 .arg(c.head * c.d_head)
                 .arg((c.head + 1) * c.d_head - 1),
             QStringLiteral("Concat"), c.joined, true);
  query_rows(StageKind::Output, QObject::tr("Output projection"), QStringLiteral("W_O"),
             QObject::tr("Out = Concat W_Oᵀ + b_O: the heads mixed back into d_model"),
             QStringLiteral("Out"), c.output, true);
  return data;
}

CellBreakdownData toCellBreakdownData(const AttentionComputation& c,
                                      const AttentionCellBreakdown& cell) {
  CellBreakdownData out;
  out.query = cell.query;
  out.key = cell.key;
  out.query_label = QString::fromStdString(c.query_labels[static_cast<std::size_t>(cell.query)]);
  out.key_label = QString::fromStdString(c.key_labels[static_cast<std::size_t>(cell.key)]);
  out.masked = cell.masked;
  out.products = cell.products;
  out.sum = cell.sum;
  out.logit = cell.logit;
  out.scale = cell.scale;
  out.scaled = cell.scaled;
  out.weight = cell.weight;
  out.rank_before = cell.rank_before;
  out.rank_after = cell.rank_after;
  out.unmasked_keys = cell.unmasked_keys;
  out.key_labels = toStringList(c.key_labels);
  for (int k = 0; k < c.weights.cols; ++k) {
    out.row_weights.push_back(c.isMasked(cell.query, k) ? std::nan("")
                                                        : c.weights.at(cell.query, k));
  }
  out.has_parts = cell.has_parts;
  out.parts = cell.parts;
  for (const std::string& name : positionPartNames())
    out.part_names << QString::fromStdString(name);
  if (!cell.has_parts) {
    out.no_parts_reason =
        c.has_position_split
            ? QString()
            : QObject::tr(
                  "The token/position split exists only at the first layer of a stack "
                  "fed token + position: this logit has no such parts.");
  }
  return out;
}

}  // namespace ascope
