#pragma once
// Numbers in the run folder's CSV files, written and read the same way whatever the locale: the
// GUI's QApplication sets LC_NUMERIC from the environment, and snprintf and strtod follow it, so
// under a decimal-comma locale metrics.csv would have got "0,5" (and "0.5" would not read back).
#include <optional>
#include <string>
#include <string_view>

namespace ascope {

/// `value` with `significant_digits` digits, as printf's "%.<digits>g" writes it in the C locale:
/// "0.693147", "1e-05", "nan", "-inf".
std::string formatNumber(double value, int significant_digits);

/// The whole of `text` as a number ("1.5", "-2e-3", "nan", "inf"), decimal point only; nullopt
/// for anything else (a comma, spaces, trailing characters) and for a value out of double's range.
std::optional<double> parseNumber(std::string_view text);

}  // namespace ascope
