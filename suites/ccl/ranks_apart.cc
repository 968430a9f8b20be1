// Cases of ranks that do not move in step, as processes do: a rank that joins its group late,
// two communicators over the same ranks at once, and a rank that leaves one of them early. They run one rank per process under
// mpirun and, in one process, with a thread per rank joining through infinicclCommInitRank.
#include <chrono>
#include <thread>

#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;

// Long enough that every other rank is already waiting in infinicclCommInitRank.
constexpr auto kLateBy = std::chrono::milliseconds(1500);
constexpr size_t kCount = 1031;

struct GroupParam : cts::Param<GroupParam> {
  int ranks;
  Drive drive;
  GroupParam(int r, Drive d) : ranks(r), drive(d) {}
  std::string Name() const { return "ranks_" + std::to_string(ranks) + "__" + DriveName(drive); }
  std::string Json() const { return nlohmann::json{{"ranks", ranks}, {"drive", DriveName(drive)}}.dump(); }
};

std::vector<GroupParam> GroupMatrix() {
  std::vector<GroupParam> params;
  for (int ranks : {2, 4}) {
    for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) params.emplace_back(ranks, drive);
  }
  return params;
}

CollectivePlan SumPlan(CollectiveKind kind, int ranks, infiniDtype_t dtype) {
  CollectiveParam param;
  param.dtype = dtype;
  param.ranks = ranks;
  param.count = kCount;
  param.placement = Placement::kOutOfPlace;
  if (kind == CollectiveKind::kAllReduce || kind == CollectiveKind::kReduceScatter) param.op = INFINICCL_SUM;
  return PlanFor(kind, param);
}

// One process: a thread per rank calls infinicclCommInitRank, the last one late.
CallResult JoinWithLastRankLate(World &world, const std::vector<int> &devices) {
  const int ranks = static_cast<int>(devices.size());
  infinicclUniqueId_t id;
  CallResult result = Check(ccl().infinicclGetUniqueId(&id), "infinicclGetUniqueId");
  if (!result.ok()) return result;
  std::vector<infinicclComm_t> comms(ranks, nullptr);
  std::vector<CallResult> results(ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      if (r == ranks - 1) std::this_thread::sleep_for(kLateBy);
      results[r] = MakeCurrent(devices[r]);
      if (!results[r].ok()) return;
      results[r] = Check(ccl().infinicclCommInitRank(&comms[r], ranks, id, r),
                         "infinicclCommInitRank(rank " + std::to_string(r) + ")");
    });
  }
  for (std::thread &thread : threads) thread.join();
  for (const CallResult &joined : results) {
    if (!joined.ok()) return joined;
  }
  return world.Adopt(comms, devices);
}

class CommLateRank : public cts::ParamCase<GroupParam> {};
CTS_ACROSS_PROCESSES(CommLateRank);

CTS_TEST_P(CommLateRank, late_rank, "comm", "CCL-COMM-9", "CCL-AR-1") {
  const GroupParam &param = GetParam();
  CCL_REQUIRE_DEVICES(param.ranks);
  World world;
  if (const auto &spread = cts::Spread()) {
    if (spread->rank == param.ranks - 1) std::this_thread::sleep_for(kLateBy);
    CCL_ASSERT_OK(world.Open(FirstDevices(param.ranks)));
  } else {
    CCL_ASSERT_OK(JoinWithLastRankLate(world, FirstDevices(param.ranks)));
  }
  RunCollective(world, param.drive, SumPlan(CollectiveKind::kAllReduce, param.ranks, INFINI_DTYPE_I32));
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(world.Close());
}

class CommTwoCommunicators : public cts::ParamCase<GroupParam> {};
CTS_ACROSS_PROCESSES(CommTwoCommunicators);

// Both communicators stay open while collectives run on each in turn, the second first.
CTS_TEST_P(CommTwoCommunicators, two_communicators, "comm", "CCL-COMM-12", "CCL-AR-1", "CCL-AG-1") {
  const GroupParam &param = GetParam();
  CCL_REQUIRE_DEVICES(param.ranks);
  World first, second;
  CCL_ASSERT_OK(first.Open(FirstDevices(param.ranks)));
  CCL_ASSERT_OK(second.Open(FirstDevices(param.ranks)));
  {
    SCOPED_TRACE("AllGather on the second communicator");
    RunCollective(second, param.drive, SumPlan(CollectiveKind::kAllGather, param.ranks, INFINI_DTYPE_F32));
    CCL_RETURN_IF_ENDED();
  }
  {
    SCOPED_TRACE("AllReduce on the first communicator");
    RunCollective(first, param.drive, SumPlan(CollectiveKind::kAllReduce, param.ranks, INFINI_DTYPE_I32));
    CCL_RETURN_IF_ENDED();
  }
  CCL_ASSERT_OK(second.Close());
  CCL_ASSERT_OK(first.Close());
}

class CommDestroyedOnOneRank : public cts::ParamCase<GroupParam> {};
CTS_ACROSS_PROCESSES(CommDestroyedOnOneRank);

// The last rank destroys its communicator of the first group once their AllReduce is done;
// the ranks then work on the second group while the first lives on everywhere else.
CTS_TEST_P(CommDestroyedOnOneRank, destroyed_on_one_rank, "comm", "CCL-COMM-13", "CCL-COMM-12", "CCL-AR-1",
           "CCL-AG-1") {
  const GroupParam &param = GetParam();
  CCL_REQUIRE_DEVICES(param.ranks);
  World first, second;
  CCL_ASSERT_OK(first.Open(FirstDevices(param.ranks)));
  CCL_ASSERT_OK(second.Open(FirstDevices(param.ranks)));
  RunCollective(first, param.drive, SumPlan(CollectiveKind::kAllReduce, param.ranks, INFINI_DTYPE_I32));
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(first.DestroyRank(param.ranks - 1));
  {
    SCOPED_TRACE("AllGather on the second communicator, the first destroyed on the last rank");
    RunCollective(second, param.drive, SumPlan(CollectiveKind::kAllGather, param.ranks, INFINI_DTYPE_F32));
    CCL_RETURN_IF_ENDED();
  }
  {
    SCOPED_TRACE("ReduceScatter on the second communicator");
    RunCollective(second, param.drive, SumPlan(CollectiveKind::kReduceScatter, param.ranks, INFINI_DTYPE_I32));
    CCL_RETURN_IF_ENDED();
  }
  CCL_ASSERT_OK(second.Close());
  CCL_ASSERT_OK(first.Close());
}

INSTANTIATE_TEST_SUITE_P(conformance, CommLateRank, testing::ValuesIn(GroupMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, CommTwoCommunicators, testing::ValuesIn(GroupMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, CommDestroyedOnOneRank, testing::ValuesIn(GroupMatrix()), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
