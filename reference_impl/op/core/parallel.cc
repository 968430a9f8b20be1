#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace infinicts::ref::op {
namespace {

thread_local bool inside_chunk = false;

struct Job {
  const std::function<void(size_t, size_t)> *body = nullptr;
  size_t n = 0;
  size_t chunk = 0;
  size_t chunks = 0;
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex mutex;
  std::condition_variable finished;

  // Takes chunks until none is left; whoever runs the last one wakes the owner.
  void Work() {
    const bool was_inside = inside_chunk;
    inside_chunk = true;
    for (;;) {
      const size_t index = next.fetch_add(1);
      if (index >= chunks) break;
      const size_t begin = index * chunk;
      (*body)(begin, std::min(n, begin + chunk));
      if (done.fetch_add(1) + 1 == chunks) {
        std::lock_guard<std::mutex> lock(mutex);
        finished.notify_all();
      }
    }
    inside_chunk = was_inside;
  }
};

class Pool {
 public:
  Pool() {
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < hardware; ++i) std::thread([this] { Serve(); }).detach();
    threads_ = hardware;
  }

  size_t threads() const { return threads_; }

  void Run(const std::shared_ptr<Job> &job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(job);
    }
    wake_.notify_all();
    job->Work();
    {
      std::unique_lock<std::mutex> lock(job->mutex);
      job->finished.wait(lock, [&] { return job->done.load() == job->chunks; });
    }
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), job), jobs_.end());
  }

 private:
  void Serve() {
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return !jobs_.empty(); });
        job = jobs_.front();
        // An exhausted job leaves the queue here so idle workers go back to sleep.
        if (job->next.load() >= job->chunks) {
          jobs_.pop_front();
          continue;
        }
      }
      job->Work();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;
  size_t threads_ = 1;
};

// Never destroyed: detached workers may still run while static destructors do.
Pool &GetPool() {
  static Pool *pool = new Pool();
  return *pool;
}

}  // namespace

size_t ParallelThreadCount() { return GetPool().threads(); }

void ParallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)> &body) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  Pool &pool = GetPool();
  if (inside_chunk || pool.threads() == 1 || n <= grain) {
    body(0, n);
    return;
  }
  // A few chunks per thread balance uneven rows without much queue traffic.
  const size_t wanted = pool.threads() * 4;
  const size_t chunk = std::max(grain, (n + wanted - 1) / wanted);
  auto job = std::make_shared<Job>();
  job->body = &body;
  job->n = n;
  job->chunk = chunk;
  job->chunks = (n + chunk - 1) / chunk;
  pool.Run(job);
}

}  // namespace infinicts::ref::op
