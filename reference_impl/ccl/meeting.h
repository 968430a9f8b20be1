// Where the ranks' stream workers meet for one collective: each deposits its buffers,
// then they pass through the phases of the algorithm together (a reusable barrier). Ranks in
// several processes meet in a subclass whose buffers are shared staging slots
// (collectives_across.cc).
#ifndef INFINICTS_REF_CCL_MEETING_H
#define INFINICTS_REF_CCL_MEETING_H

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace infinicts::ref::ccl {

// One rank's buffers for the collective.
struct RankBuffers {
  const void *send = nullptr;
  void *recv = nullptr;
};

class Meeting {
 public:
  explicit Meeting(int nranks) : nranks_(nranks), buffers_(static_cast<size_t>(nranks)) {}
  virtual ~Meeting() = default;

  int nranks() const { return nranks_; }

  // Publishes `rank`'s buffers and returns when every rank has published its own.
  void Arrive(int rank, RankBuffers buffers) {
    buffers_[static_cast<size_t>(rank)] = buffers;
    Synchronize();
  }

  // Valid after Arrive returned.
  const RankBuffers &buffers(int rank) const { return buffers_[static_cast<size_t>(rank)]; }

  // Returns when all nranks ranks have called it (the n-th time each). Everything a rank
  // wrote before the call is visible to every rank after it.
  virtual void Synchronize() {
    std::unique_lock<std::mutex> lock(mutex_);
    const uint64_t generation = generation_;
    if (++waiting_ == nranks_) {
      waiting_ = 0;
      ++generation_;
      lock.unlock();
      all_arrived_.notify_all();
      return;
    }
    all_arrived_.wait(lock, [&] { return generation_ != generation; });
  }

 protected:
  // A meeting whose ranks' buffers are known beforehand (staging slots).
  explicit Meeting(std::vector<RankBuffers> buffers) : nranks_(static_cast<int>(buffers.size())), buffers_(std::move(buffers)) {}

 private:
  const int nranks_;
  std::vector<RankBuffers> buffers_;
  std::mutex mutex_;
  std::condition_variable all_arrived_;
  int waiting_ = 0;
  uint64_t generation_ = 0;
};

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_MEETING_H
