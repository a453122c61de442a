#include "widgets/attention/word_attention.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace ascope {
namespace {

const QString kContinuation = QStringLiteral("##");

bool continues(const QString& label) {
  return label.startsWith(kContinuation) && label.size() > kContinuation.size();
}

}  // namespace

QString WordAttention::explanation() {
  return QCoreApplication::translate(
      "WordAttention",
      "words: a word's attention to another is the sum of its weights over the other word's "
      "pieces, averaged over its own pieces; pieces: one row and column per subword piece");
}

bool WordAttention::hasPieces(const AttentionPlotData& data) {
  for (const AttentionPlotGroup& g : data.groups) {
    for (const std::vector<LabeledMatrix>& layer : g.layers) {
      for (const LabeledMatrix& m : layer) {
        for (const QStringList* labels : {&m.row_labels, &m.col_labels}) {
          for (const QString& label : *labels) {
            if (continues(label)) return true;
          }
        }
      }
    }
  }
  return false;
}

std::vector<int> WordAttention::wordStarts(const QStringList& labels) {
  std::vector<int> starts;
  for (int i = 0; i < labels.size(); ++i) {
    if (i == 0 || !continues(labels[i])) starts.push_back(i);
  }
  return starts;
}

QStringList WordAttention::words(const QStringList& labels, const std::vector<int>& starts) {
  QStringList out;
  for (std::size_t w = 0; w < starts.size(); ++w) {
    const int end = w + 1 < starts.size() ? starts[w + 1] : static_cast<int>(labels.size());
    // A lone word start (a visible space, U+2423) is the start of the word its pieces spell.
    QString word = end > starts[w] + 1 && labels[starts[w]] == QString(QChar(0x2423))
                       ? QString()
                       : labels[starts[w]];
    for (int i = starts[w] + 1; i < end; ++i) word += labels[i].mid(kContinuation.size());
    out.push_back(word);
  }
  return out;
}

LabeledMatrix WordAttention::ofMatrix(const LabeledMatrix& pieces) {
  if (!pieces.isValid() || pieces.row_labels.size() != pieces.rows ||
      pieces.col_labels.size() != pieces.cols) {
    return pieces;  // no labels (a pooled thumbnail, an image's patches): nothing to group
  }
  const std::vector<int> rows = wordStarts(pieces.row_labels);
  const std::vector<int> cols = wordStarts(pieces.col_labels);
  LabeledMatrix out(static_cast<int>(rows.size()), static_cast<int>(cols.size()));
  out.row_labels = words(pieces.row_labels, rows);
  out.col_labels = words(pieces.col_labels, cols);
  const auto endOf = [](const std::vector<int>& starts, std::size_t w, int size) {
    return w + 1 < starts.size() ? starts[w + 1] : size;
  };
  for (std::size_t q = 0; q < rows.size(); ++q) {
    const int q_end = endOf(rows, q, pieces.rows);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const int k_end = endOf(cols, k, pieces.cols);
      double sum = 0;
      bool seen = false;
      for (int r = rows[q]; r < q_end; ++r) {
        for (int c = cols[k]; c < k_end; ++c) {
          const float v = pieces.at(r, c);
          if (std::isnan(v)) continue;
          sum += v;
          seen = true;
        }
      }
      out.at(static_cast<int>(q), static_cast<int>(k)) =
          seen ? static_cast<float>(sum / (q_end - rows[q]))
               : std::numeric_limits<float>::quiet_NaN();
    }
  }
  return out;
}

AttentionPlotData WordAttention::of(const AttentionPlotData& data) {
  AttentionPlotData out = data;
  for (AttentionPlotGroup& g : out.groups) {
    QStringList rows_of_first;
    for (std::vector<LabeledMatrix>& layer : g.layers) {
      for (LabeledMatrix& m : layer) {
        if (rows_of_first.isEmpty()) rows_of_first = m.row_labels;
        m = ofMatrix(m);
      }
    }
    if (!g.row_predictions.isEmpty() && g.row_predictions.size() == rows_of_first.size()) {
      const std::vector<int> starts = wordStarts(rows_of_first);
      QStringList predictions;
      for (std::size_t w = 0; w < starts.size(); ++w) {
        const int last = (w + 1 < starts.size() ? starts[w + 1] : rows_of_first.size()) - 1;
        predictions.push_back(g.row_predictions[last]);
      }
      g.row_predictions = predictions;
    }
  }
  return out;
}

}  // namespace ascope
