#include "timing/iteration_plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace infinicts::timing {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

WarmUp RunWarmUp(const Options &options, const std::function<void(int iteration)> &enqueue,
                 const std::function<void()> &synchronize) {
  WarmUp warm_up;
  const Clock::time_point start = Clock::now();
  double elapsed_ms = 0;
  int batch = 1;
  // What the batches after the first took: the estimate, once there are any.
  double later_ms = 0;
  int later_iterations = 0;
  while (warm_up.iterations < options.min_warmup || elapsed_ms < options.warmup_ms) {
    const Clock::time_point batch_start = Clock::now();
    for (int j = 0; j < batch; ++j) enqueue(warm_up.iterations++);
    synchronize();
    const double batch_ms = MillisecondsSince(batch_start);
    elapsed_ms = MillisecondsSince(start);
    if (warm_up.iterations > batch) {
      later_ms += batch_ms;
      later_iterations += batch;
    }
    const double per_iteration_ms = later_iterations > 0 ? later_ms / later_iterations : batch_ms / batch;
    warm_up.per_iteration_ms = per_iteration_ms;

    // The next batch doubles, but stops where the warm-up has had enough of both.
    const double left_ms = options.warmup_ms - elapsed_ms;
    const double by_time = left_ms <= 0 ? 0 : per_iteration_ms > 0 ? std::ceil(left_ms / per_iteration_ms) : 2.0 * batch;
    const int by_count = options.min_warmup - warm_up.iterations;
    const double needed = std::max({by_time, static_cast<double>(by_count), 1.0});
    batch = static_cast<int>(std::min(needed, 2.0 * batch));
  }
  return warm_up;
}

int TimedIterationCount(std::optional<double> per_iteration_ms, const Options &options) {
  const int fewest = std::max(1, options.min_iterations);
  const int most = std::max(fewest, options.max_iterations);
  if (!per_iteration_ms) return fewest;
  if (!(*per_iteration_ms > 0)) return most;  // faster than the clock resolves
  const double fitting = std::floor(options.budget_ms / *per_iteration_ms);
  if (!(fitting >= fewest)) return fewest;  // also when the budget is not a number
  if (fitting >= most) return most;
  return static_cast<int>(fitting);
}

}  // namespace infinicts::timing
