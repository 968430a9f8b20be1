#include "host_workers.h"

#include <algorithm>
#include <cstring>

namespace infinicts::bench {

HostWorkers::HostWorkers(size_t threads) : threads_(std::max<size_t>(threads, 1)) {
  for (size_t i = 1; i < threads_; ++i) helpers_.emplace_back([this, i] { Serve(i); });
}

HostWorkers::~HostWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread &helper : helpers_) helper.join();
}

void HostWorkers::Run(const std::function<void(size_t)> &task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    running_ = helpers_.size();
    ++generation_;
  }
  wake_.notify_all();
  task(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return running_ == 0; });
  task_ = nullptr;
}

void HostWorkers::Serve(size_t index) {
  size_t seen = 0;
  for (;;) {
    const std::function<void(size_t)> *task = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      task = task_;
    }
    (*task)(index);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--running_ == 0) done_.notify_one();
  }
}

void ThreadedMemcpy(HostWorkers &workers, void *dst, const void *src, size_t bytes) {
  // Parts start on cache-line boundaries so that no line is written by two threads.
  constexpr size_t kLine = 64;
  const size_t lines = (bytes + kLine - 1) / kLine;
  const size_t n = workers.threads();
  workers.Run([&](size_t index) {
    const size_t begin = std::min(bytes, lines * index / n * kLine);
    const size_t end = std::min(bytes, lines * (index + 1) / n * kLine);
    if (end > begin) std::memcpy(static_cast<char *>(dst) + begin, static_cast<const char *>(src) + begin, end - begin);
  });
}

}  // namespace infinicts::bench
