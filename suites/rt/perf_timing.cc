#include "perf_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "backend/names.h"

namespace infinicts::rt_cases {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsBetween(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::milli>(end - start).count();
}

void Require(int status, const char *what) {
  if (status != INFINI_STATUS_SUCCESS) {
    throw timing::TimingError(std::string(what) + " answered " + StatusName(status), status);
  }
}

}  // namespace

timing::Measurement SampleOnHost(const timing::Options &options, int calls_per_sample, const char *what,
                                 const std::function<int()> &work, const std::function<int()> &between) {
  const auto run_between = [&] {
    if (between) Require(between(), what);
  };
  timing::Measurement measurement;
  measurement.method = timing::Method::kHostClock;
  measurement.budget_ms = options.budget_ms;

  int warmup = 0;
  const Clock::time_point warmup_start = Clock::now();
  double warmup_ms = 0;
  while (warmup < options.min_warmup || warmup_ms < options.warmup_ms) {
    Require(work(), what);
    run_between();
    ++warmup;
    warmup_ms = MillisecondsBetween(warmup_start, Clock::now());
  }
  measurement.warmup_iterations = warmup;

  // As many samples as the budget holds at the warm-up's pace (between included, so that
  // the case takes about the budget).
  const double per_sample_ms = warmup_ms / warmup;
  const double fitting = per_sample_ms > 0 ? std::floor(options.budget_ms / per_sample_ms) : options.max_iterations;
  const int samples = static_cast<int>(
      std::clamp<double>(fitting, std::max(1, options.min_iterations), std::max(1, options.max_iterations)));
  measurement.samples_ms.reserve(samples);
  for (int k = 0; k < samples; ++k) {
    const Clock::time_point start = Clock::now();
    const int status = work();
    const Clock::time_point end = Clock::now();
    Require(status, what);
    measurement.samples_ms.push_back(MillisecondsBetween(start, end) / calls_per_sample);
    run_between();
  }
  measurement.stats = timing::Summarize(measurement.samples_ms);
  return measurement;
}

}  // namespace infinicts::rt_cases
