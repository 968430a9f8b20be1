// How the comparison writes its numbers, the same in every output.
#pragma once

#include <string>

#include "regression/comparison.h"

namespace infinicts::regression {

std::string FormatNumber(double value);      // 4 significant digits: 0.001234, 12.35, 1.235e+06
std::string FormatRatio(double ratio);       // "×1.23", "×inf"
std::string FormatPercentChange(double ratio);  // "+23.0%", "-12.5%"
std::string FormatMs(double ms);             // "0.123 ms"
std::string FormatBand(const TimeSpread &time);  // "0.123 ms [0.12, 0.13]"
std::string FormatThreshold(double threshold);   // "5%"
std::string CountOf(size_t count, const std::string &noun);  // "1 case", "2 cases"
// The spreads a slowdown or speedup exceeded: "between 2 baselines ×1.20, within run ×1.50"
// ("within run ×1.50" alone with one baseline).
std::string FormatSpreadExceeded(const PerfSpread &spread);
// "1 baseline", "3 baselines": how many reports the times were judged against.
std::string BaselineCount(const Comparison &comparison);

// "2 newly failing, 1 slowdown" — every kind of regression there is, or "" when none.
std::string RegressionTally(const Comparison &comparison);

}  // namespace infinicts::regression
