#pragma once
// What hovering a number of a Computation stage says: the number and how it was made, from the
// rows and columns it came from ("QKᵀ[it, cat] = q_it · k_cat = 3.214"); a masked cell says
// "masked", never a number.
#include <QString>

#include "widgets/computation/computation_plot_data.h"

namespace ascope {

/// Plain text for cell (row, col) of matrix `matrix` of `stage`; "" outside it.
QString stageCellText(const ComputationPlotData& data, const ComputationStage& stage, int matrix,
                      int row, int col);

/// A number as the view writes it: four significant digits ("3.214", "-0.0412").
QString computationNumber(double value);

}  // namespace ascope
