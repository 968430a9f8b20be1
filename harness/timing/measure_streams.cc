#include "timing/measure_streams.h"

#include <algorithm>
#include <chrono>

#include "timing/event_pairs.h"
#include "timing/flush_buffer.h"
#include "timing/iteration_plan.h"
#include "timing/rt_check.h"

namespace infinicts::timing {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

Measurement MeasureStreams(const RtApi &rt, const std::vector<TimedStream> &streams, const Launch &launch,
                           const Options &options) {
  if (streams.empty()) throw TimingError("no stream to time", INFINI_STATUS_BAD_PARAM);
  // Declared in this order so that they go in the reverse one: the streams drain before
  // the flush buffers and events are released, and the caller's device comes back last.
  CurrentDeviceRestorer caller_device(rt, streams.front().select_device);
  std::vector<FlushBuffer> flush_buffers;
  std::vector<EventPairs> events;
  StreamDrain drain(streams);

  Measurement measurement;
  measurement.budget_ms = options.budget_ms;
  measurement.method =
      !options.force_host_clock && EventsWork(streams.front()) ? Method::kDeviceEvents : Method::kHostClock;

  if (options.cold_cache) {
    flush_buffers.reserve(streams.size());
    for (const TimedStream &timed : streams) {
      flush_buffers.emplace_back(timed, options.flush_bytes);
      if (!flush_buffers.back().Ready()) {
        flush_buffers.clear();
        break;
      }
    }
  }
  measurement.cold_cache = !flush_buffers.empty();

  auto flush_caches = [&] {
    for (size_t rank = 0; rank < flush_buffers.size(); ++rank) {
      streams[rank].MakeCurrent();
      flush_buffers[rank].Enqueue();
    }
  };
  // The launch runs with the caller's device current, whichever stream was touched last.
  auto run_launch = [&](int iteration) {
    caller_device.Restore();
    CheckLaunch(launch(iteration), iteration);
  };

  const WarmUp warm_up = RunWarmUp(
      options,
      [&](int iteration) {
        flush_caches();
        run_launch(iteration);
      },
      [&] { SynchronizeAll(streams); });
  measurement.warmup_iterations = warm_up.iterations;
  int iteration = warm_up.iterations;

  if (measurement.method == Method::kDeviceEvents) {
    // One sample: `launches` back to back between each rank's pair `k`; what the slowest rank read.
    auto enqueue_sample = [&](const std::vector<EventPairs> &pairs, int k, int launches) {
      flush_caches();  // enqueued before the start event: outside the timed window
      for (size_t rank = 0; rank < streams.size(); ++rank) {
        streams[rank].MakeCurrent();
        pairs[rank].RecordStart(k);
      }
      for (int j = 0; j < launches; ++j) run_launch(iteration++);
      for (size_t rank = 0; rank < streams.size(); ++rank) {
        streams[rank].MakeCurrent();
        pairs[rank].RecordEnd(k);
      }
    };
    auto read_sample = [&](const std::vector<EventPairs> &pairs, int k) {
      double longest_ms = 0;
      for (size_t rank = 0; rank < streams.size(); ++rank) {
        streams[rank].MakeCurrent();
        longest_ms = std::max(longest_ms, pairs[rank].ElapsedMs(k));
      }
      return longest_ms;
    };
    // Launches shorter than the events' clock can resolve go several to a sample.
    const Batching batching = ChooseBatching(
        EmptyPairResolutionMs(streams.front()),
        [&](int launches) {  // the least of a few readings: one slow pair does not decide
          constexpr int kProbeSamples = 3;
          std::vector<EventPairs> probe;
          for (const TimedStream &timed : streams) probe.emplace_back(timed, kProbeSamples);
          for (int k = 0; k < kProbeSamples; ++k) enqueue_sample(probe, k, launches);
          SynchronizeAll(streams);
          double least_ms = read_sample(probe, 0);
          for (int k = 1; k < kProbeSamples; ++k) least_ms = std::min(least_ms, read_sample(probe, k));
          return least_ms;
        },
        LimitsFor(warm_up.per_iteration_ms, options));
    measurement.launches_per_sample = batching.launches_per_sample;
    const int lps = batching.launches_per_sample;
    const int sample_count = TimedIterationCount(
        warm_up.per_iteration_ms ? std::optional<double>(*warm_up.per_iteration_ms * lps) : std::nullopt, options);
    events.reserve(streams.size());
    for (const TimedStream &timed : streams) events.emplace_back(timed, sample_count);
    for (int k = 0; k < sample_count; ++k) enqueue_sample(events, k, lps);
    SynchronizeAll(streams);
    std::vector<double> spans_ms;  // what each pair read, before dividing by the launches
    for (int k = 0; k < sample_count; ++k) spans_ms.push_back(read_sample(events, k));
    measurement.samples_ms.reserve(spans_ms.size());
    for (double span_ms : spans_ms) measurement.samples_ms.push_back(span_ms / lps);
    // The tick: no larger than the smallest step between two of the samples' readings either
    // (an empty pair slowed down once does not make a fine clock coarse).
    std::optional<double> tick_ms = batching.resolution_ms;
    if (const auto step_ms = SmallestStep(spans_ms); step_ms && (!tick_ms || *step_ms < *tick_ms)) tick_ms = step_ms;
    measurement.resolution_ms = tick_ms;
    const double median_span_ms = Summarize(spans_ms).median_ms;
    measurement.resolved = median_span_ms > 0 && (!tick_ms || median_span_ms >= kResolvedTicks * *tick_ms);
  } else {
    const int timed_count = TimedIterationCount(warm_up.per_iteration_ms, options);
    measurement.samples_ms.reserve(timed_count);
    for (int k = 0; k < timed_count; ++k, ++iteration) {
      flush_caches();
      SynchronizeAll(streams);  // the flush and anything earlier end outside the timed window
      caller_device.Restore();
      const Clock::time_point start = Clock::now();
      CheckLaunch(launch(iteration), iteration);
      SynchronizeAll(streams);
      measurement.samples_ms.push_back(MillisecondsSince(start));
    }
  }
  measurement.stats = Summarize(measurement.samples_ms);
  if (!(measurement.stats.median_ms > 0)) measurement.resolved = false;
  return measurement;
}

}  // namespace infinicts::timing
