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

BatchLimits LimitsFor(std::optional<double> per_iteration_ms, const Options &options) {
  BatchLimits limits;
  limits.max_launches = std::max(1, options.max_launches_per_sample);
  limits.max_blind_launches = limits.max_launches;
  if (per_iteration_ms && *per_iteration_ms > 0) {
    const double fitting = std::floor(options.budget_ms / *per_iteration_ms);
    limits.max_blind_launches = !(fitting >= 1) ? 1 : fitting >= limits.max_launches ? limits.max_launches
                                                                                      : static_cast<int>(fitting);
  }
  limits.max_sample_ms = options.budget_ms / std::max(1, options.min_iterations);
  return limits;
}

std::optional<double> SmallestStep(std::vector<double> readings_ms) {
  std::sort(readings_ms.begin(), readings_ms.end());
  std::optional<double> smallest;
  for (size_t i = 1; i < readings_ms.size(); ++i) {
    const double step = readings_ms[i] - readings_ms[i - 1];
    if (step > 0 && (!smallest || step < *smallest)) smallest = step;
  }
  return smallest;
}

Batching ChooseBatching(std::optional<double> resolution_ms, const std::function<double(int launches)> &probe,
                        const BatchLimits &limits) {
  const int blind_limit = std::max(1, std::min(limits.max_blind_launches, limits.max_launches));
  Batching batching{1, resolution_ms};
  bool read_zero = false;
  for (int launches = 1;; launches = std::min(blind_limit, 2 * launches)) {
    batching.launches_per_sample = launches;
    const double read_ms = probe(launches);
    if (!(read_ms > 0)) {
      read_zero = true;
      if (launches == blind_limit) return batching;  // the caller finds it unresolved
      continue;
    }
    if (!batching.resolution_ms && read_zero) batching.resolution_ms = read_ms;
    if (!batching.resolution_ms) return batching;
    const double wanted_ms = kTicksPerSample * *batching.resolution_ms;
    if (read_ms < wanted_ms) {
      const double scaled = std::ceil(launches * wanted_ms / read_ms);
      const double by_time = std::floor(launches * limits.max_sample_ms / read_ms);
      const double most = std::max<double>(launches, std::min<double>(limits.max_launches, by_time));
      batching.launches_per_sample = static_cast<int>(std::min(scaled, most));
    }
    return batching;
  }
}

}  // namespace infinicts::timing
