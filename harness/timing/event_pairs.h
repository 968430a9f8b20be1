// A start and an end event per timed iteration, on one device, created up front and
// destroyed on the way out.
#pragma once

#include <optional>
#include <vector>

#include "timing/rank_device.h"

namespace infinicts::timing {

class EventPairs {
 public:
  // Creates `count` pairs on the stream's device; throws TimingError.
  EventPairs(const TimedStream &timed, int count);
  ~EventPairs();
  EventPairs(EventPairs &&other) noexcept;
  EventPairs(const EventPairs &) = delete;
  EventPairs &operator=(const EventPairs &) = delete;
  EventPairs &operator=(EventPairs &&) = delete;

  // Record on the stream; the caller has made the stream's device current.
  void RecordStart(int index) const;
  void RecordEnd(int index) const;
  // Milliseconds between the pair's events, once the stream has been synchronized.
  double ElapsedMs(int index) const;

 private:
  void DestroyAll();

  TimedStream timed_;
  std::vector<infinirtEvent_t> starts_, ends_;
};

// The smallest positive time that empty pairs of events (recorded back to back) read on the
// stream: what its events' clock can tell apart from nothing. None when every pair read 0.
std::optional<double> EmptyPairResolutionMs(const TimedStream &timed);

// Whether the backend's events can time the stream: creates, records and reads one
// pair. False when a call answers NOT_IMPLEMENTED / DEVICE_TYPE_NOT_SUPPORTED; any
// other failure throws TimingError.
bool EventsWork(const TimedStream &timed);

}  // namespace infinicts::timing
