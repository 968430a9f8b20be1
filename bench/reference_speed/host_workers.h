// A fixed group of host threads that run one task together and are kept between tasks,
// so that a timed baseline (the threaded memcpy) pays no thread creation, as the
// reference's own pool does not.
#ifndef INFINICTS_BENCH_REFERENCE_SPEED_HOST_WORKERS_H
#define INFINICTS_BENCH_REFERENCE_SPEED_HOST_WORKERS_H

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace infinicts::bench {

class HostWorkers {
 public:
  explicit HostWorkers(size_t threads);
  ~HostWorkers();
  HostWorkers(const HostWorkers &) = delete;
  HostWorkers &operator=(const HostWorkers &) = delete;

  size_t threads() const { return threads_; }
  // Runs task(index) for index in [0, threads) on every thread (the caller runs index
  // 0) and returns when all have finished.
  void Run(const std::function<void(size_t)> &task);

 private:
  void Serve(size_t index);

  size_t threads_;
  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(size_t)> *task_ = nullptr;
  size_t generation_ = 0;
  size_t running_ = 0;
  bool stopping_ = false;
};

// Copies `bytes` from src to dst, split into equal parts, one per worker.
void ThreadedMemcpy(HostWorkers &workers, void *dst, const void *src, size_t bytes);

}  // namespace infinicts::bench

#endif  // INFINICTS_BENCH_REFERENCE_SPEED_HOST_WORKERS_H
