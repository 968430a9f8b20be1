// The noise-aware performance verdict of one case: a change counts only when it is beyond
// the threshold AND beyond the runs' spread: the spread between the baselines' medians (run
// to run), and the bands (p10..p90) within runs, so a case whose median moved by chance
// reads as noise, not as a slowdown (docs/compare.md, "Performance").
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

#include "regression/comparison.h"

namespace infinicts::regression {

// The q-quantile (0..1) of `samples` by linear interpolation between closest ranks.
double Quantile(std::vector<double> samples, double q);

// A perf result's time: the median (metric time_ms_median, else the samples' median), the
// fastest and slowest of timing.repeat_medians_ms (run --repeat), and its band from, best
// first, timing.samples_ms (p10..p90), the time_ms_p10/p90 metrics, or time_cv (median ·
// (1 ± 1.2816 cv), the p10..p90 of a normal law); a median alone gives a band of zero width.
// None when the result has no positive median.
std::optional<TimeSpread> TimeSpreadOf(const nlohmann::json &result);

// One case's times in every baseline that timed it, combined.
struct BaselineTimes {
  TimeSpread combined;  // the median of the medians; the lowest p10, the highest p90
  double fastest_median = 0, slowest_median = 0;  // over every baseline's passes
  size_t passes = 0;                              // the baselines' passes in all
  double widest_within_run = 1;  // the largest p90 / p10 of one baseline
  size_t runs = 0;
};
BaselineTimes CombineBaselines(const std::vector<TimeSpread> &times);  // times: one or more

struct PerfJudgement {
  PerfVerdict verdict = PerfVerdict::kUnchanged;
  PerfSpread spread;
};

// With R = slowest / fastest median of a pass, over the baselines' passes or over the new
// run's (run --repeat), the larger, and W = the slower-looking run's own p90 / p10:
// slowdown: ratio > 1 + threshold, the new run's fastest pass median > slowest baseline
//           median × R, and next p10 > highest baseline p90 × W (W of the new run);
// speedup:  ratio < 1 / (1 + threshold), the new run's slowest pass median < fastest baseline
//           median / R, and next p90 × W < lowest baseline p10 (W of the widest baseline);
// both: the median moved by 10 µs or more from the nearest baseline median;
// otherwise unchanged within the threshold, else noise. W stands for what a run disturbed
// within itself (a loaded machine, a descheduled thread) may be off as a whole; since
// interference only slows, it is the slower-looking run's. With one baseline, swapping the
// reports swaps slowdowns and speedups exactly.
PerfJudgement JudgePerf(const BaselineTimes &base, const TimeSpread &next, double threshold);
// One baseline.
PerfVerdict JudgePerf(const TimeSpread &base, const TimeSpread &next, double threshold);

}  // namespace infinicts::regression
