// CPU events. Each EventRecord makes a new Completion, which the recording stream's
// worker completes (and stamps with the time) when it reaches it; the event keeps only
// its latest one, so re-recording supersedes, and waits already enqueued keep theirs.
#ifndef INFINICTS_REF_CPU_EVENT_H
#define INFINICTS_REF_CPU_EVENT_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

namespace infinicts::ref::cpu {

class Completion {
 public:
  // Stamps steady_clock time (ns) and wakes every waiter.
  void Complete();
  bool done() const { return done_.load(std::memory_order_acquire); }
  // Meaningful once done().
  int64_t time_ns() const { return time_ns_; }
  void Wait();

 private:
  std::atomic<bool> done_{false};
  int64_t time_ns_ = 0;
  std::mutex mutex_;
  std::condition_variable completed_;
};

class Event {
 public:
  Event(int device, uint32_t flags) : device_(device), flags_(flags) {}

  int device() const { return device_; }
  uint32_t flags() const { return flags_; }
  // The latest record; NULL when never recorded.
  std::shared_ptr<Completion> Latest() const;
  // Runs `enqueue` (which puts `record` on a stream) and, if it succeeds, makes `record`
  // the latest, both under the event's lock: of two racing EventRecord calls, the record
  // enqueued last is the one that stays.
  template <typename Enqueue>
  bool Record(const std::shared_ptr<Completion> &record, Enqueue &&enqueue) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!enqueue()) return false;
    latest_ = record;
    return true;
  }

 private:
  const int device_;
  const uint32_t flags_;
  mutable std::mutex mutex_;
  std::shared_ptr<Completion> latest_;
};

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_EVENT_H
