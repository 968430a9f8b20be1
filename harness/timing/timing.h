// Device timing for perf cases: the backend's own events on its stream where it has
// them, the host clock around a stream synchronize where it has not; warm-up, then
// as many iterations as a time budget allows (as Triton's do_bench), an optional
// cache flush between iterations, and order statistics over every sample.
//
//   timing::Options options = timing::OptionsFromEnvironment();
//   timing::Measurement m = timing::Measure(rt, stream, [&](int i) { return Launch(i % buffers); }, options);
//   timing::RecordMeasurement(m);                               // metrics + the result's `timing`
//   cts::RecordMetric("gflops", flops / (m.stats.median_ms * 1e6));
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace infinicts::timing {

// Order statistics of samples in milliseconds. p10/p90 by linear interpolation
// between closest ranks; cv = sample standard deviation / mean (0 for one sample).
struct Stats {
  size_t count = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0, p10_ms = 0, p90_ms = 0, mean_ms = 0, cv = 0;
};
Stats Summarize(std::vector<double> samples_ms);

enum class Method { kDeviceEvents, kHostClock };
const char *MethodName(Method method);  // "device_events", "host_clock"

struct Options {
  double budget_ms = 100;      // time the timed iterations may take in all (after warm-up)
  double warmup_ms = 10;       // warm-up runs at least this long ...
  int min_warmup = 2;          // ... and at least this many iterations
  int min_iterations = 5;      // even when one iteration exceeds the budget
  int max_iterations = 1000;
  // Flush the device's caches before every iteration (warm-up included, so that the budget
  // covers the flush) with an infinirtMemsetAsync outside the timed window.
  bool cold_cache = false;
  // Bytes written to flush (larger than any last-level cache); halved down to 1 MiB while
  // the allocation fails, and cold_cache is off in the Measurement when none succeeds.
  size_t flush_bytes = 256u << 20;
  bool force_host_clock = false;    // measure with the host clock even where events exist
  // Timed with events, a sample spans at least kTicksPerSample ticks of the events' clock:
  // short launches go several to a sample (up to this many) and the sample is their mean.
  int max_launches_per_sample = 1024;
};

// How many ticks of the events' clock a sample spans once launches are batched, and how
// many it must span to count as resolved.
inline constexpr double kTicksPerSample = 20;
inline constexpr double kResolvedTicks = 10;
// Defaults, overridden by INFINICTS_PERF_BUDGET_MS, INFINICTS_PERF_ITERS, INFINICTS_PERF_WARMUP
// and INFINICTS_PERF_COLD_CACHE=1 (what `infinicts run --perf-budget-ms / --iters / --warmup /
// --cold-cache` set for the suites).
Options OptionsFromEnvironment();

struct Measurement {
  Method method = Method::kHostClock;
  int warmup_iterations = 0;
  bool cold_cache = false;
  int rotating_buffers = 1;  // set by the caller when it rotates inputs
  double budget_ms = 0;
  // The events' clock: the smallest positive time an empty pair of events read, or what a
  // pair first read after reading 0 (a coarse clock); none when neither was seen.
  std::optional<double> resolution_ms;
  int launches_per_sample = 1;  // each sample is the mean of this many back-to-back launches
  // Whether the samples stand above the clock's resolution (kResolvedTicks of it, and above
  // 0): an unresolved measurement says so, and its figures stay out of rooflines and compare.
  bool resolved = true;
  std::vector<double> samples_ms;  // one per timed sample (per launch), in order
  Stats stats;
  nlohmann::json ToJson() const;   // the report's result.timing object
};

// One iteration's work, enqueued on the stream being timed; `iteration` counts from 0
// over warm-up and timed runs, so that callers can rotate buffers. Returns an
// infiniStatus_t; anything but success stops the measurement.
using Launch = std::function<int(int iteration)>;

// Times `launch` on `stream` (the current device's). Uses events (EventCreate, Record,
// ElapsedTime; one pair per timed iteration, read after the final synchronize) when the
// backend exports them and they work, else (NOT_IMPLEMENTED / DEVICE_TYPE_NOT_SUPPORTED)
// the host clock around the launch and a StreamSynchronize. Throws timing::TimingError with the failing
// call (or launch) and status; everything it allocated is released either way.
Measurement Measure(const RtApi &rt, infinirtStream_t stream, const Launch &launch, const Options &options);

class TimingError : public std::runtime_error {
 public:
  TimingError(const std::string &what, int status) : std::runtime_error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

}  // namespace infinicts::timing

namespace infinicts::timing {

// A collective's iteration spans several streams (one per rank, each on its device).
// A sample is the longest of the ranks' times for that iteration (events), or the
// host time from the launch to the last stream's synchronize (host clock). Each stream's
// device is made current (infinirtSetDevice) before acting on it; `launch` runs with the
// caller's current device, which is also restored at the end.
struct RankStream {
  int device_id;
  infinirtStream_t stream;
};
Measurement MeasureAcross(const RtApi &rt, infiniDevice_t device_type, const std::vector<RankStream> &streams,
                          const Launch &launch, const Options &options);

// Reports a measurement for the running case: metrics time_ms_median, time_ms_min,
// time_ms_p10, time_ms_p90, time_ms_max, time_cv, iterations; and the result's `timing`.
void RecordMeasurement(const Measurement &measurement);

}  // namespace infinicts::timing
