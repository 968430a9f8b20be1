// One collective over a group, described rank by rank (what each buffer holds before,
// what the receive region must hold after), and the runner that allocates the buffers,
// issues the calls with a Drive and checks every rank: the receive region bit for bit
// (or within the AVG allowance), out of place the send buffer unchanged, and the guard
// bytes around every buffer.
#pragma once

#include <functional>
#include <memory>

#include "ccl_data.h"
#include "ccl_params.h"
#include "ccl_world.h"

namespace infinicts::ccl_cases {

struct RankPlan {
  Bytes send;       // out of place: the send buffer's content
  Bytes in_place;   // in place: the one buffer's content, holding both regions
  size_t send_offset = 0;  // in place: byte offsets of the regions in the buffer
  size_t recv_offset = 0;
  size_t recv_bytes = 0;
  std::shared_ptr<const Bytes> expected;  // the receive region afterwards starts at
  size_t expected_offset = 0;             // (*expected)[expected_offset]
};

using IssueFn = std::function<CallResult(const World &world, int rank, void *send, void *recv)>;

struct CollectivePlan {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Placement placement = Placement::kOutOfPlace;
  bool within_ulps = false;    // AVG on a floating dtype (CCL-NUM-3)
  bool ranks_agree = false;    // every rank receives the same bytes (CCL-NUM-4 applies)
  std::vector<RankPlan> ranks;
  IssueFn issue;
};

// How the send buffers are filled: before the run with a blocking copy, or on each rank's
// stream with MemcpyAsync right before the collective (and the result read back with
// MemcpyAsync right after it), while the send buffers first hold other data.
enum class Feeding { kBlocking, kOnStream };

// One plan on one group, in three steps, so that several collectives can be issued
// before any stream is synchronized. Prepare and Verify report with GoogleTest
// assertions; the caller returns when they end the case (CCL_RETURN_IF_ENDED).
class CollectiveRun {
 public:
  CollectiveRun(World &world, const CollectivePlan &plan, Feeding feeding = Feeding::kBlocking)
      : world_(world), plan_(plan), feeding_(feeding) {}
  // Allocates every rank's buffers on its device and fills them.
  void Prepare();
  // Fed on the stream: the copy into the rank's send buffer (the rank's device is current).
  CallResult Feed(int rank);
  // Issues the rank's calls (the rank's device is current).
  CallResult Issue(int rank);
  // Fed on the stream: the copy of the rank's result back to the host.
  CallResult ReadBack(int rank);
  // Feed, Issue and ReadBack as World::Run's steps.
  World::RankSteps Steps();
  // Checks every rank, after every rank's stream was synchronized.
  void Verify();

 private:
  struct RankBuffers {
    DeviceMemory *send = nullptr;  // out of place only
    DeviceMemory *recv = nullptr;  // in place: the one buffer
    uint8_t *send_ptr = nullptr;
    uint8_t *recv_ptr = nullptr;
  };
  World &world_;
  const CollectivePlan &plan_;
  Feeding feeding_;
  std::vector<RankBuffers> buffers_;
  std::vector<Bytes> streamed_;  // fed on the stream: results read back by MemcpyAsync
};

// Prepare, issue with `drive`, synchronize and verify one plan.
void RunCollective(World &world, Drive drive, const CollectivePlan &plan, Feeding feeding = Feeding::kBlocking);

#define CCL_RETURN_IF_ENDED()                                                \
  do {                                                                       \
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) \
      return;                                                                \
  } while (0)

// The ranks of a gathering plan: rank r sends blocks[r], and every rank receives all blocks
// one after the other (in place, its block already in its slot of the receive buffer).
std::vector<RankPlan> GatherRankPlans(std::vector<Bytes> blocks, Placement placement);
// The ranks of a scattering reduction: rank r sends data.inputs[r] and receives its block,
// block_bytes[r] bytes of data.expected after the blocks before it (in place, that block
// of its send buffer).
std::vector<RankPlan> ScatterRankPlans(ReductionData data, const std::vector<size_t> &block_bytes,
                                       Placement placement);

// The plans of each collective (the data is moved in).
CollectivePlan AllReducePlan(ReductionData data, infiniDtype_t dtype, infinicclReduceOp_t op, size_t count,
                             Placement placement);
CollectivePlan ReduceScatterPlan(ReductionData data, infiniDtype_t dtype, infinicclReduceOp_t op, size_t recv_count,
                                 Placement placement);
// payloads[r]: rank r's send buffer (the root's is broadcast; the others' must not be).
CollectivePlan BroadcastPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, int root, size_t count,
                             Placement placement);
CollectivePlan AllGatherPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, size_t send_count, Placement placement);
// A ring: rank r sends payloads[r] to r+1 and receives from r-1 (even ranks send first).
CollectivePlan RingPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, size_t count);

enum class CollectiveKind { kAllReduce, kBroadcast, kAllGather, kReduceScatter, kSendRecv };

// The plan a CollectiveParam asks for, with data seeded from the running case.
CollectivePlan PlanFor(CollectiveKind kind, const CollectiveParam &param);

// Skips without `ranks` devices, opens a group over the first `ranks` devices, runs and
// checks the plan `make_plan` answers, and closes the group.
void RunOnNewGroup(int ranks, Drive drive, const std::function<CollectivePlan()> &make_plan,
                   Feeding feeding = Feeding::kBlocking);

// The whole case of a CollectiveParam: skip without enough devices, open a group over
// the first param.ranks devices, run and check the plan, close the group.
// `adjust`, where given, changes the plan before it runs (the calls it issues, say).
void RunParamCase(CollectiveKind kind, const CollectiveParam &param, Feeding feeding = Feeding::kBlocking,
                  const std::function<void(CollectivePlan &)> &adjust = {});

}  // namespace infinicts::ccl_cases
