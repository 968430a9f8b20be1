// Subject `all_reduce`: every op × number dtype, in and out of place, counts from 1 to
// 16 Mi, 1 to 8 ranks driven from one thread or one thread each; stream order with
// copies, many collectives in flight, the NULL stream (spec sections CCL-AR, CCL-NUM,
// CCL-INPLACE, CCL-ORDER).
#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

std::vector<CollectiveParam> ExactMatrix() {
  ParamMatrix matrix;
  // Every op and dtype, both placements, on 4 ranks from one thread.
  matrix.Add(AllOps(), kNumberDtypes, kSmallCounts, {4}, kBothPlacements, Drive::kOneThread);
  // Every op and dtype on each rank count, one thread per rank.
  matrix.Add(AllOps(), kNumberDtypes, {7}, {1, 2, 3, 4}, kOutOfPlace, Drive::kThreadPerRank);
  matrix.Add({INFINICCL_SUM, INFINICCL_AVG}, {INFINI_DTYPE_F32}, {7}, {8}, kOutOfPlace, Drive::kThreadPerRank);
  // 1,000,003 elements: every op with several dtypes, every dtype with some op.
  const auto large = [&matrix](infinicclReduceOp_t op, std::vector<infiniDtype_t> dtypes, auto placements) {
    matrix.Add({op}, dtypes, {kLargeOddCount}, {4}, placements, Drive::kOneThread);
  };
  large(INFINICCL_SUM, {INFINI_DTYPE_I32, INFINI_DTYPE_U64, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}, kOutOfPlace);
  large(INFINICCL_PROD, {INFINI_DTYPE_I8, INFINI_DTYPE_U16, INFINI_DTYPE_F16, INFINI_DTYPE_F64}, kOutOfPlace);
  large(INFINICCL_MAX, {INFINI_DTYPE_I16, INFINI_DTYPE_U32, INFINI_DTYPE_BF16, INFINI_DTYPE_F64}, kOutOfPlace);
  large(INFINICCL_MIN, {INFINI_DTYPE_I64, INFINI_DTYPE_U8, INFINI_DTYPE_F16, INFINI_DTYPE_F32}, kOutOfPlace);
  large(INFINICCL_AVG, {INFINI_DTYPE_I16, INFINI_DTYPE_U8, INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32,
                        INFINI_DTYPE_F64}, kOutOfPlace);
  large(INFINICCL_SUM, {INFINI_DTYPE_F32}, kInPlace);
  large(INFINICCL_MAX, {INFINI_DTYPE_I64}, kInPlace);
  large(INFINICCL_AVG, {INFINI_DTYPE_BF16}, kInPlace);
  // A large one, where the data no longer fits any cache.
  matrix.Add({INFINICCL_SUM}, {INFINI_DTYPE_BF16}, {kHugeCount}, {4}, kOutOfPlace, Drive::kThreadPerRank);
  return matrix.params();
}

class AllReduceExact : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(AllReduceExact);

CTS_TEST_P(AllReduceExact, exact, "all_reduce", "CCL-AR-1", "CCL-AR-2", "CCL-NUM-1", "CCL-NUM-2", "CCL-NUM-3",
           "CCL-NUM-4", "CCL-INPLACE-1", "CCL-INPLACE-5", "CCL-ORDER-1", "CCL-ORDER-2", "CCL-ORDER-3",
           "CCL-COMM-1", "CCL-COMM-11") {
  RunParamCase(CollectiveKind::kAllReduce, GetParam());
}

// The send buffers are filled by MemcpyAsync on each rank's stream right before the
// collective, and the result read back by MemcpyAsync right after it.
std::vector<CollectiveParam> StreamOrderMatrix() {
  ParamMatrix matrix;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    matrix.Add({INFINICCL_SUM}, {INFINI_DTYPE_F32}, {kStreamOrderCount}, {4}, kOutOfPlace, drive);
    matrix.Add({INFINICCL_MAX}, {INFINI_DTYPE_I64}, {kStreamOrderCount}, {4}, kOutOfPlace, drive);
  }
  return matrix.params();
}

class AllReduceStreamOrder : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(AllReduceStreamOrder);

CTS_TEST_P(AllReduceStreamOrder, after_memcpy_async, "all_reduce", "CCL-ORDER-4", "CCL-AR-1") {
  RunParamCase(CollectiveKind::kAllReduce, GetParam(), Feeding::kOnStream);
}

// Many all-reduces on separate buffers, issued back to back before any synchronization.
struct InFlightParam : cts::Param<InFlightParam> {
  int collectives;
  Drive drive;
  InFlightParam(int c, Drive d) : collectives(c), drive(d) {}
  std::string Name() const { return "collectives_" + std::to_string(collectives) + "__" + DriveName(drive); }
  std::string Json() const {
    return nlohmann::json{{"collectives", collectives}, {"ranks", 4}, {"drive", DriveName(drive)}}.dump();
  }
};

class AllReduceInFlight : public cts::ParamCase<InFlightParam> {};
CTS_ACROSS_PROCESSES(AllReduceInFlight);

CTS_TEST_P(AllReduceInFlight, many_in_flight, "all_reduce", "CCL-ORDER-5", "CCL-AR-1") {
  constexpr int kRanks = 4;
  CCL_REQUIRE_DEVICES(kRanks);
  World world;
  CCL_ASSERT_OK(world.Open(FirstDevices(kRanks)));
  std::mt19937_64 rng = CaseRng();
  std::vector<CollectivePlan> plans;
  for (int i = 0; i < GetParam().collectives; ++i) {
    const infinicclReduceOp_t op = kReduceOps[i % kReduceOps.size()];
    const infiniDtype_t dtype = kNumberDtypes[(i * 7) % kNumberDtypes.size()];
    const size_t count = 1 + (rng() % 4099);
    const Placement placement = i % 3 == 0 ? Placement::kInPlace : Placement::kOutOfPlace;
    plans.push_back(AllReducePlan(MakeReductionData(dtype, op, kRanks, count, rng), dtype, op, count, placement));
  }
  std::vector<std::unique_ptr<CollectiveRun>> runs;
  for (const CollectivePlan &plan : plans) {
    runs.push_back(std::make_unique<CollectiveRun>(world, plan));
    runs.back()->Prepare();
    CCL_RETURN_IF_ENDED();
  }
  CCL_ASSERT_OK(world.Run(GetParam().drive, [&runs](int rank) {
    for (auto &run : runs) {
      const CallResult issued = run->Issue(rank);
      if (!issued.ok()) return issued;
    }
    return CallResult{};
  }));
  for (size_t i = 0; i < runs.size(); ++i) {
    SCOPED_TRACE("all-reduce " + std::to_string(i) + " of " + std::to_string(runs.size()));
    runs[i]->Verify();
    CCL_RETURN_IF_ENDED();
  }
  CCL_ASSERT_OK(world.Close());
}

// Every rank passes the NULL stream, with its device current.
class AllReduceNullStream : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(AllReduceNullStream);

std::vector<CollectiveParam> NullStreamMatrix() {
  ParamMatrix matrix;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    matrix.Add({INFINICCL_SUM}, {INFINI_DTYPE_I32}, {kStreamOrderCount}, {4}, kOutOfPlace, drive);
  }
  return matrix.params();
}

CTS_TEST_P(AllReduceNullStream, null_stream, "all_reduce", "CCL-ORDER-6", "CCL-AR-1") {
  const CollectiveParam &param = GetParam();
  CCL_REQUIRE_DEVICES(param.ranks);
  World world;
  CCL_ASSERT_OK(world.Open(FirstDevices(param.ranks), World::Streams::kDefault));
  RunCollective(world, param.drive, PlanFor(CollectiveKind::kAllReduce, param));
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(world.Close());
}

INSTANTIATE_TEST_SUITE_P(conformance, AllReduceExact, testing::ValuesIn(ExactMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllReduceStreamOrder, testing::ValuesIn(StreamOrderMatrix()),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllReduceInFlight,
                         testing::Values(InFlightParam(32, Drive::kOneThread), InFlightParam(32, Drive::kThreadPerRank)),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllReduceNullStream, testing::ValuesIn(NullStreamMatrix()),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
