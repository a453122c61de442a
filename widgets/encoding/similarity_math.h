#pragma once

#include "widgets/common/labeled_matrix.h"

#include <QList>
#include <QString>

#include <vector>

namespace ascope {

/// G = M Mᵀ of a row-major (rows x cols) matrix: the dot product of every pair of rows.
/// For positional encodings, how alike two positions look to the model.
std::vector<float> gramMatrix(const std::vector<float>& m, int rows, int cols);

/// Cosine similarity of every pair of rows; a zero row has similarity 0 with everything.
std::vector<float> cosineSimilarityMatrix(const std::vector<float>& m, int rows, int cols);

/// The ViT-paper figure as one matrix: for each patch (r, c) of a grid_rows x grid_cols grid, a
/// small grid_rows x grid_cols block holding its similarity to every patch, blocks laid out on
/// the patch grid with `gap` NaN cells between them. `similarity` is (first_patch + n) squared,
/// n = grid_rows * grid_cols; rows/cols before first_patch (a CLS token) are skipped.
LabeledMatrix patchSimilarityMosaic(const std::vector<float>& similarity, int first_patch,
                                    int grid_rows, int grid_cols, int gap = 1);

/// Parses "0, 1, 4-6, 32" into sorted unique indices below `limit`; ignores what does not parse.
QList<int> parseIndexList(const QString& text, int limit);

}  // namespace ascope
