#include "cpu/stream.h"

#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

namespace infinicts::ref::cpu {
namespace {

// Initial-exec for the same reason as the current device (runtime/registry.cc).
__attribute__((tls_model("initial-exec"))) thread_local const Stream *serving_stream = nullptr;

// Work is host code of the sibling libraries; an exception must not take the worker down.
void RunGuarded(const Stream::Runner &run, Stream::Work &work) {
  try {
    run(work);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "infinirt (cpu): work on a stream threw: %s\n", error.what());
  } catch (...) {
    std::fprintf(stderr, "infinirt (cpu): work on a stream threw an exception\n");
  }
}

}  // namespace

Stream::Stream(int device, bool is_default, bool synchronous, Runner run)
    : device_(device), is_default_(is_default), synchronous_(synchronous), run_(std::move(run)) {
  if (synchronous_) return;
  worker_ = std::thread([this] { Serve(); });
  // Named for debuggers and top: "infinirt-cpu<N>" (15 characters at most).
  const std::string name = "infinirt-cpu" + std::to_string(device);
  pthread_setname_np(worker_.native_handle(), name.substr(0, 15).c_str());
}

Stream::~Stream() { Shutdown(); }

bool Stream::Enqueue(Work work) {
  if (synchronous_) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (shut_down_) return false;
      ++enqueued_;
    }
    RunNow(work);
    return true;
  }
  bool wake_worker = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shut_down_) return false;
    queue_.push_back(std::move(work));
    ++enqueued_;
    wake_worker = worker_sleeping_;
  }
  if (wake_worker) work_ready_.notify_one();
  return true;
}

void Stream::RunNow(Work &work) {
  std::lock_guard<std::recursive_mutex> one_at_a_time(inline_mutex_);
  const Stream *const outer = serving_stream;
  serving_stream = this;  // inside this stream's work, as its worker would be
  RunGuarded(run_, work);
  work = nullptr;
  serving_stream = outer;
  std::lock_guard<std::mutex> lock(mutex_);
  ++completed_;
}

void Stream::Synchronize() {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t ticket = enqueued_;
  while (completed_ < ticket) {
    wake_at_ = std::min(wake_at_, ticket);
    work_done_.wait(lock);
  }
}

void Stream::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shut_down_ = true;
  }
  work_ready_.notify_one();
  if (worker_.joinable()) worker_.join();
}

bool Stream::IsCallerWorker() const { return serving_stream == this; }

bool Stream::CallerIsAnyWorker() { return serving_stream != nullptr; }

void Stream::Serve() {
  serving_stream = this;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    while (queue_.empty() && !shut_down_) {
      worker_sleeping_ = true;
      work_ready_.wait(lock);
      worker_sleeping_ = false;
    }
    if (queue_.empty()) return;  // shut down and drained
    Work work = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    RunGuarded(run_, work);
    work = nullptr;  // the work's captures die outside the lock
    lock.lock();
    ++completed_;
    if (completed_ >= wake_at_) {
      wake_at_ = UINT64_MAX;
      work_done_.notify_all();
    }
  }
}

}  // namespace infinicts::ref::cpu
