#include "app/gui/views/sample/minimal_pair_question.h"

#include "app/gui/views/attention/attention_plot_conversion.h"
#include "engine/analysis/minimal_pair.h"

namespace ascope {

namespace {

LabeledMatrix toMatrix(const AttentionMap& map, const QStringList& rows, const QStringList& cols) {
  LabeledMatrix m(map.rows, map.cols);
  m.values = map.values;
  m.row_labels = rows;  // shared by every head of the group, not copied
  m.col_labels = cols;
  return m;
}

QString answerText(const InferenceAnswer& answer) {
  if (answer.probability > 0) {
    return QStringLiteral("%1 (p = %2)")
        .arg(QString::fromStdString(answer.label))
        .arg(answer.probability, 0, 'f', 2);
  }
  return QString::fromStdString(answer.label);
}

/// The comparison as three plot snapshots with the same groups, layers, heads and labels.
MinimalPairPlotData toPlotData(const MinimalPairComparison& comparison, const std::string& task) {
  MinimalPairPlotData out;
  for (const AlignedGroup& group : comparison.groups) {
    const AttentionPlotGroup shown = titledPlotGroup(task, group.name);
    const QStringList rows = toStringList(group.queries.labels);
    const QStringList cols = toStringList(group.keys.labels);
    AttentionPlotGroup a = shown, b = shown, difference = shown;
    for (int l = 0; l < group.layers; ++l) {
      a.layers.emplace_back();
      b.layers.emplace_back();
      difference.layers.emplace_back();
      for (int h = 0; h < group.heads; ++h) {
        const AlignedHead& head = group.maps[static_cast<size_t>(l * group.heads + h)];
        a.layers.back().push_back(toMatrix(head.a, rows, cols));
        b.layers.back().push_back(toMatrix(head.b, rows, cols));
        difference.layers.back().push_back(toMatrix(head.difference, rows, cols));
      }
    }
    out.a.groups.push_back(std::move(a));
    out.b.groups.push_back(std::move(b));
    out.difference.groups.push_back(std::move(difference));
  }
  for (const HeadChange& change : rankHeadChanges(comparison).heads) {
    MinimalPairPlotData::HeadChange shown;
    for (std::size_t g = 0; g < comparison.groups.size(); ++g) {
      if (comparison.groups[g].name == change.group) shown.group = static_cast<int>(g);
    }
    shown.layer = change.layer;
    shown.head = change.head;
    shown.change = change.change;
    shown.query = QString::fromStdString(change.most_changed_query);
    shown.distance = change.most_changed_distance;
    out.ranking << shown;
  }
  return out;
}

}  // namespace

std::optional<std::pair<QString, QString>> splitPair(const QString& text) {
  const int bar = text.indexOf(QStringLiteral(" | "));
  if (bar < 0) return std::nullopt;
  const QString a = text.left(bar).trimmed();
  const QString b = text.mid(bar + 3).trimmed();
  if (a.isEmpty() || b.isEmpty()) return std::nullopt;
  return std::pair{a, b};
}

Expected<MinimalPairReply> askMinimalPair(const InferenceRequest& request,
                                          const std::string& text_b, int occluded_patch) {
  Expected<InferenceAnswer> a = inferFromCheckpoint(request);
  if (!a.ok()) return Error{"A: " + a.error()};
  InferenceRequest second = request;
  if (occluded_patch >= 0) {
    second.occluded_patch = occluded_patch;
  } else {
    second.text = text_b;
  }
  Expected<InferenceAnswer> b = inferFromCheckpoint(second);
  if (!b.ok()) return Error{"B: " + b.error()};
  const MinimalPairComparison comparison =
      compareMinimalPair(a->attention, b->attention, occluded_patch);
  if (!comparison.problem.empty()) return Error{comparison.problem};
  MinimalPairReply reply;
  reply.pair = toPlotData(comparison, a->task);
  reply.pair.input_a = QString::fromStdString(request.text);
  reply.pair.input_b = occluded_patch >= 0 ? QStringLiteral("patch %1 occluded").arg(occluded_patch)
                                           : QString::fromStdString(text_b);
  reply.pair.answer_a = answerText(*a);
  reply.pair.answer_b = answerText(*b);
  reply.a = std::move(*a);
  return reply;
}

}  // namespace ascope
