#pragma once

#include <QString>

#include <optional>
#include <vector>

namespace ascope {

/// What was switched off for one evaluation.
enum class HeadAblationKind {
  DropHead,      ///< this head's output zeroed, the others of its layer kept
  KeepOnlyHead,  ///< every other head of the layer zeroed
  DropLayer,     ///< the whole attention sublayer skipped
};

/// "drop head", "keep only head", "drop layer": the names the engine writes.
inline QString headAblationKindName(HeadAblationKind kind) {
  switch (kind) {
    case HeadAblationKind::DropHead:
      return QStringLiteral("drop head");
    case HeadAblationKind::KeepOnlyHead:
      return QStringLiteral("keep only head");
    case HeadAblationKind::DropLayer:
      return QStringLiteral("drop layer");
  }
  return {};
}

inline std::optional<HeadAblationKind> headAblationKindFromName(const QString& name) {
  for (HeadAblationKind kind :
       {HeadAblationKind::DropHead, HeadAblationKind::KeepOnlyHead, HeadAblationKind::DropLayer})
    if (headAblationKindName(kind) == name.trimmed()) return kind;
  return std::nullopt;
}

/// A figure the task reports besides loss and accuracy (a translation's BLEU), as the table
/// shows it.
struct HeadAblationFigure {
  QString key;    ///< its name in files: "bleu"
  QString title;  ///< as people read it: "BLEU"
  bool higher_is_better = true;
  int decimals = 1;  ///< digits of a change
};

/// The values of HeadAblationData::figures for one evaluation, in that order; empty where missing.
using HeadAblationFigureValues = std::vector<std::optional<double>>;

/// The model with nothing switched off, on the same validation samples.
struct HeadAblationBaseline {
  double loss = 0.0;
  double accuracy = 0.0;  ///< fraction 0..1
  HeadAblationFigureValues figures;
  int samples = 0;  ///< validation samples every row was measured on
};

/// One evaluation with one head (or layer) switched off.
struct HeadAblationRow {
  QString group;  ///< attention group, e.g. "encoder self"
  int layer = 0;  ///< 0-based
  int head = -1;  ///< 0-based; -1 for the whole layer (DropLayer)
  HeadAblationKind ablation = HeadAblationKind::DropHead;
  double loss = 0.0;
  double accuracy = 0.0;  ///< fraction 0..1
  HeadAblationFigureValues figures;
};

/// A whole ablation result: the baseline and every row measured so far.
struct HeadAblationData {
  std::vector<HeadAblationFigure> figures;  ///< what the baseline's and rows' values are
  HeadAblationBaseline baseline;
  std::vector<HeadAblationRow> rows;

  bool isEmpty() const { return rows.empty(); }
};

}  // namespace ascope
