// The warm-up, and how many timed iterations fit the budget after it.
#pragma once

#include <functional>
#include <optional>

#include "timing/timing.h"

namespace infinicts::timing {

struct WarmUp {
  int iterations = 0;
  std::optional<double> per_iteration_ms;  // none without a warm-up
};

// Runs `enqueue(iteration)` until both options.min_warmup iterations and options.warmup_ms
// have passed, in batches that end with `synchronize()`: 1, 2, 4, … iterations, each no
// longer than what the warm-up still needs. The per-iteration time comes from the batches
// after the first (the first alone when it is the only one), so that a first run's one-time
// costs (page faults, lazy initialization) and a synchronize per iteration do not inflate it.
WarmUp RunWarmUp(const Options &options, const std::function<void(int iteration)> &enqueue,
                 const std::function<void()> &synchronize);

// budget_ms / per_iteration_ms, rounded down and clamped to [min_iterations,
// max_iterations] (at least one). Without an estimate: min_iterations.
int TimedIterationCount(std::optional<double> per_iteration_ms, const Options &options);

}  // namespace infinicts::timing
