// Subject `reduce_scatter`: every op × number dtype, in and out of place (the receive
// region inside the send buffer), counts from 1 to 1,000,003 per rank, 1 to 4 ranks
// driven from one thread or one thread each, and stream order with copies (spec
// sections CCL-RS, CCL-NUM, CCL-INPLACE, CCL-ORDER).
#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

std::vector<CollectiveParam> ExactMatrix() {
  ParamMatrix matrix;
  matrix.Add(AllOps(), kNumberDtypes, kSmallCounts, {4}, kBothPlacements, Drive::kOneThread);
  // Each rank receives 1,000,003 elements of a 4,000,012-element reduction: one dtype per op.
  const std::vector<std::pair<infinicclReduceOp_t, infiniDtype_t>> large = {
      {INFINICCL_SUM, INFINI_DTYPE_F32}, {INFINICCL_PROD, INFINI_DTYPE_BF16}, {INFINICCL_MAX, INFINI_DTYPE_U8},
      {INFINICCL_MIN, INFINI_DTYPE_I64}, {INFINICCL_AVG, INFINI_DTYPE_F16}};
  for (const auto &[op, dtype] : large) matrix.Add({op}, {dtype}, {kLargeOddCount}, {4}, kOutOfPlace, Drive::kOneThread);
  matrix.Add({INFINICCL_AVG}, {INFINI_DTYPE_F32}, {kLargeOddCount}, {4}, kInPlace, Drive::kOneThread);
  matrix.Add(AllOps(), kNumberDtypes, {7}, {1, 2, 3, 4}, kOutOfPlace, Drive::kThreadPerRank);
  matrix.Add({INFINICCL_SUM, INFINICCL_AVG}, {INFINI_DTYPE_F32}, {7}, {8}, kOutOfPlace, Drive::kThreadPerRank);
  return matrix.params();
}

class ReduceScatterExact : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(ReduceScatterExact);

CTS_TEST_P(ReduceScatterExact, exact, "reduce_scatter", "CCL-RS-1", "CCL-NUM-1", "CCL-NUM-2", "CCL-NUM-3",
           "CCL-INPLACE-4", "CCL-INPLACE-5", "CCL-ORDER-1", "CCL-ORDER-2", "CCL-ORDER-3") {
  RunParamCase(CollectiveKind::kReduceScatter, GetParam());
}

std::vector<CollectiveParam> StreamOrderMatrix() {
  ParamMatrix matrix;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    matrix.Add({INFINICCL_SUM}, {INFINI_DTYPE_BF16}, {kStreamOrderCount}, {4}, kOutOfPlace, drive);
  }
  return matrix.params();
}

class ReduceScatterStreamOrder : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(ReduceScatterStreamOrder);

CTS_TEST_P(ReduceScatterStreamOrder, after_memcpy_async, "reduce_scatter", "CCL-ORDER-4", "CCL-RS-1") {
  RunParamCase(CollectiveKind::kReduceScatter, GetParam(), Feeding::kOnStream);
}

INSTANTIATE_TEST_SUITE_P(conformance, ReduceScatterExact, testing::ValuesIn(ExactMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, ReduceScatterStreamOrder, testing::ValuesIn(StreamOrderMatrix()),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
