#include "cpu/event.h"

#include <chrono>

namespace infinicts::ref::cpu {

void Completion::Complete() {
  time_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                 std::chrono::steady_clock::now().time_since_epoch())
                 .count();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_.store(true, std::memory_order_release);
  }
  completed_.notify_all();
}

void Completion::Wait() {
  if (done()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  completed_.wait(lock, [this] { return done(); });
}

std::shared_ptr<Completion> Event::Latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_;
}

}  // namespace infinicts::ref::cpu
