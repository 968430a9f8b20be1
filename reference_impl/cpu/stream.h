// A CPU stream: a queue of host work served, in order, by the stream's own worker thread.
// Idle workers sleep on a condition variable; nothing polls. A synchronous stream (the
// runtime's INFINICTS_CPU_SYNC mode) has no worker: Enqueue runs the work before it returns.
#ifndef INFINICTS_REF_CPU_STREAM_H
#define INFINICTS_REF_CPU_STREAM_H

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace infinicts::ref::cpu {

class Stream {
 public:
  using Work = std::function<void()>;
  // Runs one piece of work (with whatever around it the runtime needs: its device current).
  using Runner = std::function<void(Work &)>;

  // Starts the worker (none for a synchronous stream), which runs every piece of work through
  // `run`; throws std::system_error when the host cannot start a thread.
  Stream(int device, bool is_default, bool synchronous, Runner run);
  // Shuts down (see Shutdown) if that has not happened yet.
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  int device() const { return device_; }
  bool is_default() const { return is_default_; }

  // Appends work; false (and the work is dropped) once the stream is shut down.
  bool Enqueue(Work work);
  // Returns when all work enqueued before the call has run.
  void Synchronize();
  // Lets the worker finish everything enqueued, then joins it. Must not run on the worker.
  void Shutdown();
  // Whether the calling thread is this stream's worker (i.e. we are inside its work).
  bool IsCallerWorker() const;
  // Whether the calling thread is the worker of any stream.
  static bool CallerIsAnyWorker();

 private:
  void Serve();

  // A synchronous stream's Enqueue: the work, in order with other threads' and with work it
  // enqueues on this stream itself.
  void RunNow(Work &work);

  const int device_;
  const bool is_default_;
  const bool synchronous_;
  const Runner run_;
  std::recursive_mutex inline_mutex_;  // a synchronous stream's work, one piece at a time
  std::mutex mutex_;
  std::condition_variable work_ready_;  // the worker waits here for work
  std::condition_variable work_done_;   // Synchronize waits here
  std::deque<Work> queue_;
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
  // The smallest ticket a Synchronize waits for: the worker notifies only when it is reached.
  uint64_t wake_at_ = UINT64_MAX;
  bool worker_sleeping_ = false;
  bool shut_down_ = false;
  std::thread worker_;
};

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_STREAM_H
