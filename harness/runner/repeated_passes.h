// `run --repeat N`: the perf cases run N times over, one whole pass after another, so that
// what slows a stretch of the run (a busy neighbour, a clock that drops, a cache another
// process took) falls on different passes of each case, as Google Benchmark's interleaved
// repetitions do. The N results of a case become one, which keeps every pass's median: the
// spread between passes is the run-to-run noise `compare` must see past (docs/compare.md).
#pragma once

#include <optional>
#include <vector>

#include "report/case_result.h"

namespace infinicts::runner {

// A perf result's median time in ms as compare reads it (regression::TimeSpreadOf): the
// time_ms_median metric, else the median of timing.samples_ms; none without a positive one or
// when the result was timed below the timer's resolution (timing.resolved false).
std::optional<double> MedianTimeMs(const report::CaseResult &result);

// One case's results, one per pass in pass order, as one:
// - when a pass did not pass, the first such pass, its message saying which pass of how many;
// - else the pass whose median time is the median of the passes' (the lower middle one for an
//   even count), with timing.repeat_medians_ms holding every pass's median in pass order,
//   and its duration the passes' total.
// A single pass comes back as it is. `passes` must not be empty.
report::CaseResult MergePasses(std::vector<report::CaseResult> passes);

}  // namespace infinicts::runner
