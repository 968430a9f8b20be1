// Mode perf of the collectives: AllReduce (SUM, F32 and BF16), AllGather,
// ReduceScatter (SUM), Broadcast (root 0), AllGatherV and ReduceScatterV (SUM, uneven
// blocks) in F32, on 2 ranks and on every device
// under test, from 1 KiB to 64 MiB (1 GiB in the full profile), reported as nccl-tests
// does (time, algbw, busbw; perf_shape.h says how sizes are counted).
#include "perf_bench.h"

#include "cts/rank_spread.h"

namespace infinicts::ccl_cases {
namespace {

class AllReducePerf : public cts::ParamCase<CollectivePerfParam> {};
CTS_ACROSS_PROCESSES(AllReducePerf);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AllReducePerf);  // a sweep of another collective
CTS_TEST_P(AllReducePerf, bandwidth, "all_reduce", "CCL-AR-1", "CCL-NUM-1", "CCL-ORDER-3", "CCL-ORDER-5") {
  RunCollectivePerf(GetParam());
}

class AllGatherPerf : public cts::ParamCase<CollectivePerfParam> {};
CTS_ACROSS_PROCESSES(AllGatherPerf);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AllGatherPerf);  // a sweep of another collective
CTS_TEST_P(AllGatherPerf, bandwidth, "all_gather", "CCL-AG-1", "CCL-ORDER-3", "CCL-ORDER-5") {
  RunCollectivePerf(GetParam());
}

class ReduceScatterPerf : public cts::ParamCase<CollectivePerfParam> {};
CTS_ACROSS_PROCESSES(ReduceScatterPerf);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReduceScatterPerf);  // a sweep of another collective
CTS_TEST_P(ReduceScatterPerf, bandwidth, "reduce_scatter", "CCL-RS-1", "CCL-NUM-1", "CCL-ORDER-3", "CCL-ORDER-5") {
  RunCollectivePerf(GetParam());
}

class BroadcastPerf : public cts::ParamCase<CollectivePerfParam> {};
CTS_ACROSS_PROCESSES(BroadcastPerf);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BroadcastPerf);  // a sweep of another collective
CTS_TEST_P(BroadcastPerf, bandwidth, "broadcast", "CCL-BC-1", "CCL-ORDER-3", "CCL-ORDER-5") {
  RunCollectivePerf(GetParam());
}

class AllGatherVPerf : public cts::ParamCase<CollectivePerfParam> {};
CTS_ACROSS_PROCESSES(AllGatherVPerf);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AllGatherVPerf);  // a sweep of another collective
CTS_TEST_P(AllGatherVPerf, bandwidth, "all_gather_v", "CCL-AGV-1", "CCL-ORDER-3", "CCL-ORDER-5") {
  cts::NoteOptionalCapability("all_gather_v");
  RunCollectivePerf(GetParam());
}

class ReduceScatterVPerf : public cts::ParamCase<CollectivePerfParam> {};
CTS_ACROSS_PROCESSES(ReduceScatterVPerf);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReduceScatterVPerf);  // a sweep of another collective
CTS_TEST_P(ReduceScatterVPerf, bandwidth, "reduce_scatter_v", "CCL-RSV-1", "CCL-NUM-1", "CCL-ORDER-3",
           "CCL-ORDER-5") {
  cts::NoteOptionalCapability("reduce_scatter_v");
  RunCollectivePerf(GetParam());
}

INSTANTIATE_TEST_SUITE_P(perf, AllReducePerf,
                         testing::ValuesIn(PerfMatrix(PerfCollective::kAllReduce, {INFINI_DTYPE_F32, INFINI_DTYPE_BF16})),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(perf, AllGatherPerf, testing::ValuesIn(PerfMatrix(PerfCollective::kAllGather, {INFINI_DTYPE_F32})),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(perf, ReduceScatterPerf,
                         testing::ValuesIn(PerfMatrix(PerfCollective::kReduceScatter, {INFINI_DTYPE_F32})),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(perf, BroadcastPerf, testing::ValuesIn(PerfMatrix(PerfCollective::kBroadcast, {INFINI_DTYPE_F32})),
                         cts::NameFromParam());

INSTANTIATE_TEST_SUITE_P(perf, AllGatherVPerf,
                         testing::ValuesIn(PerfMatrix(PerfCollective::kAllGatherV, {INFINI_DTYPE_F32})),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(perf, ReduceScatterVPerf,
                         testing::ValuesIn(PerfMatrix(PerfCollective::kReduceScatterV, {INFINI_DTYPE_F32})),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
