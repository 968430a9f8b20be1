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
  const int timed_count = TimedIterationCount(warm_up.per_iteration_ms, options);
  measurement.samples_ms.reserve(timed_count);

  if (measurement.method == Method::kDeviceEvents) {
    events.reserve(streams.size());
    for (const TimedStream &timed : streams) events.emplace_back(timed, timed_count);
    for (int k = 0; k < timed_count; ++k, ++iteration) {
      flush_caches();  // enqueued before the start event: outside the timed window
      for (size_t rank = 0; rank < streams.size(); ++rank) {
        streams[rank].MakeCurrent();
        events[rank].RecordStart(k);
      }
      run_launch(iteration);
      for (size_t rank = 0; rank < streams.size(); ++rank) {
        streams[rank].MakeCurrent();
        events[rank].RecordEnd(k);
      }
    }
    SynchronizeAll(streams);
    for (int k = 0; k < timed_count; ++k) {
      double longest_ms = 0;
      for (size_t rank = 0; rank < streams.size(); ++rank) {
        streams[rank].MakeCurrent();
        longest_ms = std::max(longest_ms, events[rank].ElapsedMs(k));
      }
      measurement.samples_ms.push_back(longest_ms);
    }
  } else {
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
  return measurement;
}

}  // namespace infinicts::timing
