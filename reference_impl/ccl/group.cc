#include "ccl/group.h"

#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "ccl/rank_stream.h"
#include "infinicts_ref/runtime_internal.h"

namespace infinicts::ref::ccl {
namespace {

// The work an open group holds for one stream.
struct Batch {
  int device;
  infinirtStream_t stream;
  std::vector<std::function<void()>> sends;
  std::vector<std::function<void()>> others;
};

// Trivially destructible, so no thread-exit hook points into this library after a
// dlclose; initial-exec for the reason the runtime gives (runtime/registry.cc). `held`
// exists only while a group holds work.
struct GroupState {
  int depth;
  std::vector<Batch> *held;
};
__attribute__((tls_model("initial-exec"))) thread_local GroupState group_state{0, nullptr};

// Whether every batch's stream runs work at the enqueueing call (the CPU runtime's
// synchronous mode): then one batch would wait in the call for ranks not yet enqueued.
bool RunAtCall(const std::vector<Batch> &batches) {
  for (const Batch &batch : batches) {
    int runs_at_call = 0;
    if (infinictsRefStreamRunsAtCall(batch.stream, &runs_at_call) != INFINI_STATUS_SUCCESS || !runs_at_call) return false;
  }
  return true;
}

infiniStatus_t EnqueueBatch(Batch &batch) {
  return EnqueueForRank(batch.device, batch.stream, [sends = std::move(batch.sends), others = std::move(batch.others)] {
    for (const auto &work : sends) work();
    for (const auto &work : others) work();
  });
}

}  // namespace

void OpenGroup() { ++group_state.depth; }

infiniStatus_t CloseGroup() {
  if (group_state.depth == 0) return INFINI_STATUS_BAD_PARAM;
  if (--group_state.depth > 0 || group_state.held == nullptr) return INFINI_STATUS_SUCCESS;
  const std::unique_ptr<std::vector<Batch>> held(group_state.held);
  group_state.held = nullptr;
  std::vector<infiniStatus_t> statuses(held->size(), INFINI_STATUS_SUCCESS);
  if (held->size() > 1 && RunAtCall(*held)) {
    // Each rank's batch from a thread of its own, so that all of them meet; the group is done
    // when GroupEnd returns, as its streams' work is.
    std::vector<std::thread> enqueuers;
    for (size_t i = 0; i < held->size(); ++i) {
      enqueuers.emplace_back([&, i] { statuses[i] = EnqueueBatch((*held)[i]); });
    }
    for (std::thread &enqueuer : enqueuers) enqueuer.join();
  } else {
    for (size_t i = 0; i < held->size(); ++i) statuses[i] = EnqueueBatch((*held)[i]);
  }
  for (infiniStatus_t status : statuses) {
    if (status != INFINI_STATUS_SUCCESS) return status;
  }
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t SubmitForRank(int device, infinirtStream_t stream, bool is_send, std::function<void()> work) {
  if (group_state.depth == 0) return EnqueueForRank(device, stream, std::move(work));
  const infiniStatus_t status = CheckRankStream(device, stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (group_state.held == nullptr) group_state.held = new std::vector<Batch>;
  Batch *batch = nullptr;
  for (Batch &candidate : *group_state.held) {
    if (candidate.device == device && candidate.stream == stream) batch = &candidate;
  }
  if (batch == nullptr) batch = &group_state.held->emplace_back(Batch{device, stream, {}, {}});
  (is_send ? batch->sends : batch->others).push_back(std::move(work));
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::ref::ccl
