// How the runtime's perf cases time their work: timing::Measure for what a stream does,
// SampleOnHost for what a call costs the host, and the macro that turns a failed
// measurement into the case's outcome.
#pragma once

#include <functional>

#include "cts/case.h"
#include "timing/timing.h"

namespace infinicts::rt_cases {

// Host-clock samples of `work`, for the host-side cost of calls rather than the device
// work they enqueue. Warm-up as timing::Measure does it, then as many samples as
// options.budget_ms allows (within min_iterations and max_iterations). `between` (may be
// empty) runs untimed after every sample. Each sample is divided by `calls_per_sample`,
// so that it is the cost of one call. A status other than SUCCESS from `work` or
// `between` throws timing::TimingError naming `what`.
timing::Measurement SampleOnHost(const timing::Options &options, int calls_per_sample, const char *what,
                                 const std::function<int()> &work, const std::function<int()> &between);

}  // namespace infinicts::rt_cases

// Runs `statement` (a measurement); a timing::TimingError ends the case `unsupported` when
// its status says the backend lacks a call, and failed otherwise.
#define RT_PERF_ASSERT_MEASURED(statement)                                                              \
  do {                                                                                                  \
    try {                                                                                               \
      statement;                                                                                        \
    } catch (const ::infinicts::timing::TimingError &rt_perf_error_) {                                 \
      if (::infinicts::cts::IsUnsupportedStatus(rt_perf_error_.status()))                               \
        GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << rt_perf_error_.what();                 \
      FAIL() << "the measurement failed: " << rt_perf_error_.what();                                   \
    }                                                                                                   \
  } while (0)
