// A scripted InfiniRT for the timing library's tests: streams with a virtual device clock
// that launches advance (the launch returns at once, as an asynchronous one does; a
// synchronize then waits the work's time for real), events that stamp that clock, fake
// allocations, and a log of the calls in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace infinicts::timing::test {

struct FakeStream {
  int device_id = 0;
  double clock_ms = 0;    // device time at the end of the work enqueued so far
  double pending_ms = 0;  // enqueued work a synchronize has not yet waited for
};

struct FakeEvent {
  int device_id = 0;
  bool recorded = false;
  double stamp_ms = 0;
};

class FakeRuntime {
 public:
  FakeRuntime();  // the fakes in Api() act on the newest FakeRuntime alive
  ~FakeRuntime();
  FakeRuntime(const FakeRuntime &) = delete;
  FakeRuntime &operator=(const FakeRuntime &) = delete;

  // Every entry callable: the fakes below, NOT_IMPLEMENTED for the rest.
  RtApi Api() const;

  infinirtStream_t AddStream(int device_id);
  // What a launch does: `device_ms` of work on the stream, ending after the launch returns.
  void Enqueue(infinirtStream_t stream, double device_ms);
  void Log(const std::string &call) { calls.push_back(call); }

  // Knobs.
  int event_create_status = INFINI_STATUS_SUCCESS;    // NOT_IMPLEMENTED: a backend without events
  int event_elapsed_status = INFINI_STATUS_SUCCESS;
  double event_tick_ms = 0;                           // > 0: elapsed times read whole ticks of this
  int event_record_status = INFINI_STATUS_SUCCESS;
  size_t largest_allocation = SIZE_MAX;               // larger requests fail
  int memset_status = INFINI_STATUS_SUCCESS;

  // Observations.
  std::vector<std::string> calls;  // "set_device", "sync", "create_event", "record", "memset", "malloc", "free", …
  std::vector<size_t> memset_sizes;
  int current_device = 0;
  std::map<void *, size_t> allocations;                       // live
  std::map<void *, std::unique_ptr<FakeEvent>> events;        // live
  std::vector<std::unique_ptr<FakeStream>> streams;

  static FakeRuntime *Current();

 private:
  FakeRuntime *previous_;
};

// How many times `call` appears in the log.
int CountCalls(const FakeRuntime &fake, const std::string &call);

}  // namespace infinicts::timing::test
