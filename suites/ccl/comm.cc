// Subject `comm`: making groups with CommInitAll (any order of devices, every rank count)
// and with GetUniqueId + CommInitRank from one thread per rank, their errors, destroying
// and making groups again and again, and several groups alive at once over the same
// devices (spec section CCL-COMM). Each group proves its ranks with an AllGather, whose
// result shows which rank each buffer belongs to.
#include <cstring>
#include <thread>

#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;
using cts::rt;

int DeviceCount() {
  int count = 0;
  if (rt().infinirtGetDeviceCount(cts::device_type(), &count) != INFINI_STATUS_SUCCESS) return 0;
  return count;
}

// An AllGather of 5 I32 per rank, which tells every rank's place in the group.
CollectivePlan RankCheckPlan(int ranks) {
  std::mt19937_64 rng = CaseRng(ranks);
  std::vector<Bytes> payloads;
  for (int r = 0; r < ranks; ++r) payloads.push_back(RandomBytes(5 * sizeof(int32_t), rng));
  return AllGatherPlan(std::move(payloads), INFINI_DTYPE_I32, 5, Placement::kOutOfPlace);
}

// A status call with a name and the status the spec requires of it.
struct StatusRow : cts::Param<StatusRow> {
  std::string name;
  int expected;
  std::function<int()> call;
  StatusRow(std::string n, int e, std::function<int()> c) : name(std::move(n)), expected(e), call(std::move(c)) {}
  std::string Name() const { return name; }
  std::string Json() const { return nlohmann::json{{"call", name}, {"expected", StatusName(expected)}}.dump(); }
};

// CommInitAll with `ids`; a group it makes anyway is destroyed again.
int InitAllWith(std::vector<int> ids, int ndevice) {
  std::vector<infinicclComm_t> comms(std::max<size_t>(ids.size(), 1), nullptr);
  const int status = ccl().infinicclCommInitAll(cts::device_type(), comms.data(), ndevice, ids.data());
  if (status == INFINI_STATUS_SUCCESS) {
    for (int r = 0; r < ndevice && r < static_cast<int>(comms.size()); ++r) ccl().infinicclCommDestroy(comms[r]);
  }
  return status;
}

std::vector<StatusRow> InitAllRejectRows() {
  const auto first = [] { return cts::device_ids().front(); };
  std::vector<StatusRow> rows;
  rows.emplace_back("null_comms", INFINI_STATUS_NULL_POINTER, [first] {
    const int ids[1] = {first()};
    return ccl().infinicclCommInitAll(cts::device_type(), nullptr, 1, ids);
  });
  rows.emplace_back("null_ids", INFINI_STATUS_NULL_POINTER, [] {
    infinicclComm_t comms[1] = {nullptr};
    const int status = ccl().infinicclCommInitAll(cts::device_type(), comms, 1, nullptr);
    if (status == INFINI_STATUS_SUCCESS) ccl().infinicclCommDestroy(comms[0]);
    return status;
  });
  rows.emplace_back("ndevice_0", INFINI_STATUS_BAD_PARAM, [first] { return InitAllWith({first()}, 0); });
  rows.emplace_back("ndevice_minus_1", INFINI_STATUS_BAD_PARAM, [first] { return InitAllWith({first()}, -1); });
  rows.emplace_back("repeated_id", INFINI_STATUS_BAD_PARAM, [first] { return InitAllWith({first(), first()}, 2); });
  rows.emplace_back("id_minus_1", INFINI_STATUS_DEVICE_NOT_FOUND, [first] { return InitAllWith({first(), -1}, 2); });
  rows.emplace_back("id_past_count", INFINI_STATUS_DEVICE_NOT_FOUND, [] { return InitAllWith({DeviceCount()}, 1); });
  return rows;
}

class CommInitAllRejects : public cts::ParamCase<StatusRow> {};

CTS_PROBE_P(CommInitAllRejects, init_all_rejects, "comm", "CCL-COMM-2", "CCL-COMM-3", "CCL-COMM-4", "CCL-COMM-5") {
  CTS_ASSERT_STATUS(GetParam().call(), GetParam().expected);
}

class CommCase : public cts::CaseBase {};

CTS_PROBE_F(CommCase, init_all_type_without_devices, "conformance", "comm", "CCL-COMM-6") {
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    int count = 0;
    if (rt().infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), &count) != INFINI_STATUS_SUCCESS || count != 0) {
      continue;
    }
    infinicclComm_t comms[1] = {nullptr};
    const int ids[1] = {0};
    const int status = cts::ProbeInvalidInput("infinicclCommInitAll(type, comms, 1, ids)", [&] {
      return ccl().infinicclCommInitAll(static_cast<infiniDevice_t>(type), comms, 1, ids);
    });
    if (status == INFINI_STATUS_SUCCESS) ccl().infinicclCommDestroy(comms[0]);
    SCOPED_TRACE("device type " + DeviceTypeName(type));
    CTS_ASSERT_STATUS_AS(status, "infinicclCommInitAll(type, comms, 1, ids)", INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
    return;
  }
  GTEST_SKIP() << "the backend has devices of every type";
}

CTS_PROBE_F(CommCase, destroy_null, "conformance", "comm", "CCL-COMM-10") {
  CTS_SHOULD_ANSWER(ccl().infinicclCommDestroy(nullptr), "destroy_null_as_recommended", INFINI_STATUS_NULL_POINTER,
                    INFINI_STATUS_SUCCESS);
}

CTS_PROBE_F(CommCase, unique_id_null, "conformance", "comm", "CCL-COMM-7") {
  CTS_ASSERT_STATUS(ccl().infinicclGetUniqueId(nullptr), INFINI_STATUS_NULL_POINTER);
}

CTS_TEST_F(CommCase, unique_id_fresh, "conformance", "comm", "CCL-COMM-7") {
  constexpr int kIds = 16;
  std::vector<infinicclUniqueId_t> ids(kIds);
  for (auto &id : ids) CTS_ASSERT_OK(ccl().infinicclGetUniqueId(&id));
  for (int a = 0; a < kIds; ++a) {
    for (int b = a + 1; b < kIds; ++b) {
      EXPECT_NE(std::memcmp(ids[a].internal, ids[b].internal, sizeof ids[a].internal), 0)
          << "infinicclGetUniqueId answered the same id on calls " << a << " and " << b;
    }
  }
}

// Groups of every rank count over the first devices, in order and reversed.
struct InitAllParam : cts::Param<InitAllParam> {
  int ranks;
  bool reversed;
  InitAllParam(int r, bool rev) : ranks(r), reversed(rev) {}
  std::string Name() const { return "ranks_" + std::to_string(ranks) + (reversed ? "__reversed" : "__in_order"); }
  std::string Json() const { return nlohmann::json{{"ranks", ranks}, {"order", reversed ? "reversed" : "in_order"}}.dump(); }
};

std::vector<InitAllParam> InitAllMatrix() {
  std::vector<InitAllParam> params;
  for (int ranks : {1, 2, 3, 4, 8}) {
    params.emplace_back(ranks, false);
    if (ranks > 1) params.emplace_back(ranks, true);
  }
  return params;
}

class CommInitAll : public cts::ParamCase<InitAllParam> {};

CTS_TEST_P(CommInitAll, init_all, "comm", "CCL-COMM-1", "CCL-COMM-11", "CCL-AG-1") {
  const InitAllParam &param = GetParam();
  CCL_REQUIRE_DEVICES(param.ranks);
  std::vector<int> ids = FirstDevices(param.ranks);
  if (param.reversed) std::reverse(ids.begin(), ids.end());
  World world;
  CCL_ASSERT_OK(world.Open(ids));
  for (int a = 0; a < world.size(); ++a) {
    for (int b = a + 1; b < world.size(); ++b) {
      ASSERT_NE(world.comm(a), world.comm(b)) << "ranks " << a << " and " << b << " got the same communicator";
    }
  }
  RunCollective(world, Drive::kOneThread, RankCheckPlan(param.ranks));
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(world.Close());
}

CTS_TEST_F(CommCase, life_cycle, "conformance", "comm", "CCL-COMM-1", "CCL-COMM-11") {
  constexpr int kRounds = 12;
  const int most = std::min<int>(4, cts::device_ids().size());
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const int ranks = 1 + round % most;
    World world;
    CCL_ASSERT_OK(world.Open(FirstDevices(ranks)));
    RunCollective(world, Drive::kOneThread, RankCheckPlan(ranks));
    CCL_RETURN_IF_ENDED();
    CCL_ASSERT_OK(world.Close());
  }
}

std::vector<StatusRow> InitRankRejectRows() {
  // Each with a fresh id; none may wait for other ranks.
  const auto init = [](bool null_comm, int nranks, int rank) {
    infinicclUniqueId_t id;
    const int made = ccl().infinicclGetUniqueId(&id);
    if (made != INFINI_STATUS_SUCCESS) return made;
    infinicclComm_t comm = nullptr;
    const int status = ccl().infinicclCommInitRank(null_comm ? nullptr : &comm, nranks, id, rank);
    if (status == INFINI_STATUS_SUCCESS && comm != nullptr) ccl().infinicclCommDestroy(comm);
    return status;
  };
  std::vector<StatusRow> rows;
  rows.emplace_back("null_comm", INFINI_STATUS_NULL_POINTER, [init] { return init(true, 1, 0); });
  rows.emplace_back("nranks_0", INFINI_STATUS_BAD_PARAM, [init] { return init(false, 0, 0); });
  rows.emplace_back("nranks_minus_1", INFINI_STATUS_BAD_PARAM, [init] { return init(false, -1, 0); });
  rows.emplace_back("rank_minus_1", INFINI_STATUS_BAD_PARAM, [init] { return init(false, 2, -1); });
  rows.emplace_back("rank_equals_nranks", INFINI_STATUS_BAD_PARAM, [init] { return init(false, 2, 2); });
  return rows;
}

class CommInitRankRejects : public cts::ParamCase<StatusRow> {};

CTS_PROBE_P(CommInitRankRejects, init_rank_rejects, "comm", "CCL-COMM-8") {
  CTS_ASSERT_STATUS(GetParam().call(), GetParam().expected);
}

// Rank r joins from its own thread on device ids[n - 1 - r]: the group must put each rank
// on the device current on its thread.
struct RanksParam : cts::Param<RanksParam> {
  int ranks;
  explicit RanksParam(int r) : ranks(r) {}
  std::string Name() const { return "ranks_" + std::to_string(ranks); }
  std::string Json() const { return nlohmann::json{{"ranks", ranks}}.dump(); }
};

class CommInitRank : public cts::ParamCase<RanksParam> {};

CTS_TEST_P(CommInitRank, init_rank_threads, "comm", "CCL-COMM-9", "CCL-COMM-7", "CCL-COMM-11", "CCL-AG-1") {
  const int ranks = GetParam().ranks;
  CCL_REQUIRE_DEVICES(ranks);
  std::vector<int> ids = FirstDevices(ranks);
  std::reverse(ids.begin(), ids.end());
  infinicclUniqueId_t id;
  CTS_ASSERT_OK(ccl().infinicclGetUniqueId(&id));
  std::vector<infinicclComm_t> comms(ranks, nullptr);
  std::vector<CallResult> results(ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      results[r] = MakeCurrent(ids[r]);
      if (!results[r].ok()) return;
      results[r] = Check(ccl().infinicclCommInitRank(&comms[r], ranks, id, r),
                         "infinicclCommInitRank(rank " + std::to_string(r) + ")");
    });
  }
  for (std::thread &thread : threads) thread.join();
  for (const CallResult &result : results) CCL_ASSERT_OK(result);
  World world;
  CCL_ASSERT_OK(world.Adopt(comms, ids));
  RunCollective(world, Drive::kThreadPerRank, RankCheckPlan(ranks));
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(world.Close());
}

// Three groups over the same devices (in order, reversed, the first two) with four
// collectives issued before any synchronization, in the same order on every device.
struct DriveParam : cts::Param<DriveParam> {
  Drive drive;
  explicit DriveParam(Drive d) : drive(d) {}
  std::string Name() const { return DriveName(drive); }
  std::string Json() const { return nlohmann::json{{"drive", DriveName(drive)}, {"ranks", 4}}.dump(); }
};

class CommSeveralGroups : public cts::ParamCase<DriveParam> {};

CTS_TEST_P(CommSeveralGroups, several_groups, "comm", "CCL-COMM-12", "CCL-AR-1", "CCL-AG-1", "CCL-RS-1") {
  constexpr int kRanks = 4;
  const Drive drive = GetParam().drive;
  CCL_REQUIRE_DEVICES(kRanks);
  std::vector<int> in_order = FirstDevices(kRanks), reversed = in_order;
  std::reverse(reversed.begin(), reversed.end());
  World first, second, third;
  CCL_ASSERT_OK(first.Open(in_order));
  CCL_ASSERT_OK(second.Open(reversed));
  CCL_ASSERT_OK(third.Open(FirstDevices(2)));
  // Each group's rank on the first device on a stream of its own.
  CTS_REQUIRE_DISTINCT_STREAMS(first.stream(0), second.stream(kRanks - 1), third.stream(0));

  std::mt19937_64 rng = CaseRng();
  const CollectivePlan sum_plan = AllReducePlan(MakeReductionData(INFINI_DTYPE_I32, INFINICCL_SUM, kRanks, 4099, rng),
                                                INFINI_DTYPE_I32, INFINICCL_SUM, 4099, Placement::kOutOfPlace);
  std::vector<Bytes> payloads;
  for (int r = 0; r < kRanks; ++r) payloads.push_back(RandomBytes(1031 * sizeof(float), rng));
  const CollectivePlan gather_plan = AllGatherPlan(std::move(payloads), INFINI_DTYPE_F32, 1031, Placement::kOutOfPlace);
  const CollectivePlan scatter_plan =
      ReduceScatterPlan(MakeReductionData(INFINI_DTYPE_U16, INFINICCL_MAX, 2, 2 * 517, rng), INFINI_DTYPE_U16,
                        INFINICCL_MAX, 517, Placement::kOutOfPlace);
  const CollectivePlan prod_plan = AllReducePlan(MakeReductionData(INFINI_DTYPE_F64, INFINICCL_PROD, kRanks, 63, rng),
                                                 INFINI_DTYPE_F64, INFINICCL_PROD, 63, Placement::kInPlace);
  struct Step {
    World &world;
    CollectiveRun run;
  };
  std::vector<std::unique_ptr<Step>> steps;
  steps.push_back(std::make_unique<Step>(Step{first, CollectiveRun(first, sum_plan)}));
  steps.push_back(std::make_unique<Step>(Step{second, CollectiveRun(second, gather_plan)}));
  steps.push_back(std::make_unique<Step>(Step{third, CollectiveRun(third, scatter_plan)}));
  steps.push_back(std::make_unique<Step>(Step{first, CollectiveRun(first, prod_plan)}));
  for (auto &step : steps) {
    step->run.Prepare();
    CCL_RETURN_IF_ENDED();
  }
  const auto abandon_all = [&] {
    for (World *world : {&first, &second, &third}) world->Abandon();
  };

  if (drive == Drive::kOneThread) {
    for (auto &step : steps) {
      const CallResult issued =
          step->world.IssueFromOneThread(World::RankSteps{nullptr, [&step](int r) { return step->run.Issue(r); }, nullptr});
      if (!issued.ok()) abandon_all();
      CCL_ASSERT_OK(issued);
    }
  } else {
    // One thread per device issues, in step order, the rank each group has there.
    std::vector<CallResult> results(kRanks);
    std::vector<std::thread> threads;
    for (int d = 0; d < kRanks; ++d) {
      threads.emplace_back([&, d] {
        const int device = in_order[d];
        for (auto &step : steps) {
          for (int r = 0; r < step->world.size() && results[d].ok(); ++r) {
            if (step->world.device(r) != device) continue;
            results[d] = MakeCurrent(device);
            if (results[d].ok()) results[d] = step->run.Issue(r);
          }
        }
      });
    }
    for (std::thread &thread : threads) thread.join();
    for (const CallResult &result : results) {
      if (!result.ok()) abandon_all();
      CCL_ASSERT_OK(result);
    }
  }
  for (World *world : {&first, &second, &third}) CCL_ASSERT_OK(world->Synchronize());
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("collective " + std::to_string(i) + " of " + std::to_string(steps.size()));
    steps[i]->run.Verify();
    CCL_RETURN_IF_ENDED();
  }
  for (World *world : {&first, &second, &third}) CCL_ASSERT_OK(world->Close());
}

INSTANTIATE_TEST_SUITE_P(conformance, CommInitAllRejects, testing::ValuesIn(InitAllRejectRows()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, CommInitAll, testing::ValuesIn(InitAllMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, CommInitRankRejects, testing::ValuesIn(InitRankRejectRows()),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, CommInitRank, testing::Values(RanksParam(1), RanksParam(2), RanksParam(3), RanksParam(4)),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, CommSeveralGroups, testing::Values(DriveParam(Drive::kOneThread), DriveParam(Drive::kThreadPerRank)), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
