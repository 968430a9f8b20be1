// When a perf case's times spread too wide to compare: one threshold for the terminal
// (NOISY) and the HTML page (docs/usage.md, docs/reports.md).
#pragma once

namespace infinicts::report {

inline constexpr double kNoisyCv = 0.10;  // coefficient of variation of the samples

inline bool IsNoisy(double cv) { return cv > kNoisyCv; }

}  // namespace infinicts::report
