// The noise-aware performance verdict of one case: a change counts only when it is beyond
// the threshold AND the two runs' bands (p10..p90) do not overlap, so a noisy case whose
// median moved by chance reads as noise, not as a slowdown.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

#include "regression/comparison.h"

namespace infinicts::regression {

// The q-quantile (0..1) of `samples` by linear interpolation between closest ranks.
double Quantile(std::vector<double> samples, double q);

// A perf result's time: the median (metric time_ms_median, else the samples' median) and
// its band from, best first, timing.samples_ms (p10..p90), the time_ms_p10/p90 metrics, or
// time_cv (median · (1 ± 1.2816 cv), the p10..p90 of a normal law); a median alone gives a
// band of zero width. None when the result has no positive median.
std::optional<TimeSpread> TimeSpreadOf(const nlohmann::json &result);

// Slowdown: ratio > 1 + threshold and next.low > base.high. Speedup: ratio < 1 / (1 +
// threshold) and next.high < base.low (so swapping the reports swaps the two verdicts).
// Otherwise unchanged within the threshold, else noise.
PerfVerdict JudgePerf(const TimeSpread &base, const TimeSpread &next, double threshold);

}  // namespace infinicts::regression
