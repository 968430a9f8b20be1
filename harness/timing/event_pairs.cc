#include "timing/event_pairs.h"

#include <cmath>
#include <sstream>

#include "timing/rt_check.h"
#include "timing/timing.h"

namespace infinicts::timing {

EventPairs::EventPairs(const TimedStream &timed, int count) : timed_(timed) {
  timed_.MakeCurrent();
  starts_.reserve(count);
  ends_.reserve(count);
  try {
    for (int i = 0; i < count; ++i) {
      infinirtEvent_t event = nullptr;
      CheckRt(timed_.rt->infinirtEventCreate(&event), "infinirtEventCreate");
      starts_.push_back(event);
      CheckRt(timed_.rt->infinirtEventCreate(&event), "infinirtEventCreate");
      ends_.push_back(event);
    }
  } catch (...) {
    DestroyAll();  // a constructor that throws runs no destructor
    throw;
  }
}

EventPairs::EventPairs(EventPairs &&other) noexcept
    : timed_(other.timed_), starts_(std::move(other.starts_)), ends_(std::move(other.ends_)) {
  other.starts_.clear();
  other.ends_.clear();
}

EventPairs::~EventPairs() { DestroyAll(); }

void EventPairs::DestroyAll() {
  if (starts_.empty() && ends_.empty()) return;
  timed_.MakeCurrentQuietly();
  for (infinirtEvent_t event : starts_) timed_.rt->infinirtEventDestroy(event);
  for (infinirtEvent_t event : ends_) timed_.rt->infinirtEventDestroy(event);
  starts_.clear();
  ends_.clear();
}

void EventPairs::RecordStart(int index) const {
  CheckRt(timed_.rt->infinirtEventRecord(starts_[index], timed_.stream), "infinirtEventRecord");
}

void EventPairs::RecordEnd(int index) const {
  CheckRt(timed_.rt->infinirtEventRecord(ends_[index], timed_.stream), "infinirtEventRecord");
}

double EventPairs::ElapsedMs(int index) const {
  float ms = 0;
  CheckRt(timed_.rt->infinirtEventElapsedTime(&ms, starts_[index], ends_[index]), "infinirtEventElapsedTime");
  if (!std::isfinite(ms) || ms < 0) {
    std::ostringstream message;
    message << "infinirtEventElapsedTime answered " << ms << " ms for a pair recorded in order";
    throw TimingError(message.str(), INFINI_STATUS_INTERNAL_ERROR);
  }
  return ms;
}

std::optional<double> EmptyPairResolutionMs(const TimedStream &timed) {
  constexpr int kPairs = 8;
  EventPairs pairs(timed, kPairs);
  for (int i = 0; i < kPairs; ++i) {
    pairs.RecordStart(i);
    pairs.RecordEnd(i);
  }
  CheckRt(timed.rt->infinirtStreamSynchronize(timed.stream), "infinirtStreamSynchronize");
  std::optional<double> smallest;
  for (int i = 0; i < kPairs; ++i) {
    const double ms = pairs.ElapsedMs(i);
    if (ms > 0 && (!smallest || ms < *smallest)) smallest = ms;
  }
  return smallest;
}

bool EventsWork(const TimedStream &timed) {
  const RtApi &rt = *timed.rt;
  timed.MakeCurrent();
  infinirtEvent_t start = nullptr, end = nullptr;
  int status = rt.infinirtEventCreate(&start);
  if (IsUnsupported(status)) return false;
  CheckRt(status, "infinirtEventCreate");
  status = rt.infinirtEventCreate(&end);
  if (status != INFINI_STATUS_SUCCESS) {
    rt.infinirtEventDestroy(start);
    if (IsUnsupported(status)) return false;
    CheckRt(status, "infinirtEventCreate");
  }
  struct Destroyer {  // waits for whatever was recorded before destroying it
    const RtApi &rt;
    infinirtStream_t stream;
    infinirtEvent_t start, end;
    ~Destroyer() {
      rt.infinirtStreamSynchronize(stream);
      rt.infinirtEventDestroy(start);
      rt.infinirtEventDestroy(end);
    }
  } destroyer{rt, timed.stream, start, end};

  status = rt.infinirtEventRecord(start, timed.stream);
  if (IsUnsupported(status)) return false;
  CheckRt(status, "infinirtEventRecord");
  status = rt.infinirtEventRecord(end, timed.stream);
  if (IsUnsupported(status)) return false;
  CheckRt(status, "infinirtEventRecord");
  CheckRt(rt.infinirtStreamSynchronize(timed.stream), "infinirtStreamSynchronize");
  float ms = 0;
  status = rt.infinirtEventElapsedTime(&ms, start, end);
  if (IsUnsupported(status)) return false;
  CheckRt(status, "infinirtEventElapsedTime");
  return true;
}

}  // namespace infinicts::timing
