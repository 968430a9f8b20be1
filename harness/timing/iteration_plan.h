// The warm-up, and how many timed iterations fit the budget after it.
#pragma once

#include <functional>
#include <optional>
#include <vector>

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

struct BatchLimits {
  int max_launches = 1;         // options.max_launches_per_sample
  int max_blind_launches = 1;   // while pairs read 0: what the warm-up says fits the budget
  double max_sample_ms = 0;     // once a pair reads a time: a sample's share of the budget
};
// The limits for `options`, from the warm-up's host-timed estimate per iteration.
BatchLimits LimitsFor(std::optional<double> per_iteration_ms, const Options &options);

struct Batching {
  int launches_per_sample = 1;
  std::optional<double> resolution_ms;  // as given, or a coarse clock's tick found by probing
};

// The smallest positive difference between two distinct readings: a clock's tick is no
// larger. None with fewer than two distinct readings.
std::optional<double> SmallestStep(std::vector<double> readings_ms);

// How many launches go to one event-timed sample. `probe(n)` times n back-to-back launches
// with one pair of events and answers what the pair read. Probes 1, 2, 4, … launches while a
// pair reads 0 (up to max_blind_launches); a pair that reads more after reading 0 shows a
// coarse clock, whose tick that reading is taken to be. With a resolution known, the count is
// scaled up so a sample spans kTicksPerSample ticks, within max_launches and max_sample_ms.
Batching ChooseBatching(std::optional<double> resolution_ms, const std::function<double(int launches)> &probe,
                        const BatchLimits &limits);

}  // namespace infinicts::timing
