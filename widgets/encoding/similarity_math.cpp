#include "widgets/encoding/similarity_math.h"

#include <QRegularExpression>

#include <cmath>
#include <limits>
#include <set>

namespace ascope {

std::vector<float> gramMatrix(const std::vector<float>& m, int rows, int cols) {
  std::vector<float> out(static_cast<size_t>(rows) * rows, 0.0f);
  if (rows <= 0 || cols <= 0 || m.size() < static_cast<size_t>(rows) * cols) return out;
  for (int i = 0; i < rows; ++i) {
    const float* a = m.data() + static_cast<size_t>(i) * cols;
    for (int j = i; j < rows; ++j) {
      const float* b = m.data() + static_cast<size_t>(j) * cols;
      double dot = 0.0;  // double: 512-dim sums of products lose digits in float
      for (int k = 0; k < cols; ++k) dot += double(a[k]) * b[k];
      out[static_cast<size_t>(i) * rows + j] = static_cast<float>(dot);
      out[static_cast<size_t>(j) * rows + i] = static_cast<float>(dot);
    }
  }
  return out;
}

std::vector<float> cosineSimilarityMatrix(const std::vector<float>& m, int rows, int cols) {
  std::vector<float> out = gramMatrix(m, rows, cols);
  std::vector<double> norms(static_cast<size_t>(std::max(0, rows)));
  for (int i = 0; i < rows; ++i)
    norms[i] = std::sqrt(double(out[static_cast<size_t>(i) * rows + i]));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < rows; ++j) {
      const double denom = norms[i] * norms[j];
      float& v = out[static_cast<size_t>(i) * rows + j];
      v = denom > 0.0 ? static_cast<float>(v / denom) : 0.0f;
    }
  return out;
}

LabeledMatrix patchSimilarityMosaic(const std::vector<float>& similarity, int first_patch,
                                    int grid_rows, int grid_cols, int gap) {
  const int n = grid_rows * grid_cols;
  const int tokens = first_patch + n;
  if (grid_rows <= 0 || grid_cols <= 0 || similarity.size() != static_cast<size_t>(tokens) * tokens)
    return {};
  LabeledMatrix mosaic(grid_rows * (grid_rows + gap) - gap, grid_cols * (grid_cols + gap) - gap,
                       std::numeric_limits<float>::quiet_NaN());
  for (int p = 0; p < n; ++p) {
    const int top = (p / grid_cols) * (grid_rows + gap);
    const int left = (p % grid_cols) * (grid_cols + gap);
    for (int q = 0; q < n; ++q) {
      mosaic.at(top + q / grid_cols, left + q % grid_cols) =
          similarity[static_cast<size_t>(first_patch + p) * tokens + first_patch + q];
    }
  }
  return mosaic;
}

QList<int> parseIndexList(const QString& text, int limit) {
  std::set<int> picked;
  static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
  static const QRegularExpression range(QStringLiteral("^(\\d+)\\s*[-:]\\s*(\\d+)$"));
  // Allow "4 - 6" by gluing spaces around dashes before splitting.
  QString normalized = text;
  normalized.replace(QRegularExpression(QStringLiteral("\\s*([-:])\\s*")), QStringLiteral("\\1"));
  for (const QString& part : normalized.split(separators, Qt::SkipEmptyParts)) {
    const QRegularExpressionMatch match = range.match(part);
    if (match.hasMatch()) {
      const int a = match.captured(1).toInt();
      const int b = match.captured(2).toInt();
      for (int i = std::min(a, b); i <= std::max(a, b) && i < limit; ++i) picked.insert(i);
      continue;
    }
    bool ok = false;
    const int v = part.toInt(&ok);
    if (ok && v >= 0 && v < limit) picked.insert(v);
  }
  return QList<int>(picked.begin(), picked.end());
}

}  // namespace ascope
