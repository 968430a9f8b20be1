// Subject `all_gather`: every number dtype, in place (the send buffer inside the receive
// buffer at the rank's slot) and out of place, counts from 1 to 1,000,003 per rank, 1 to
// 4 ranks driven from one thread or one thread each, and stream order with copies (spec
// sections CCL-AG, CCL-INPLACE, CCL-ORDER).
#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

std::vector<CollectiveParam> ExactMatrix() {
  ParamMatrix matrix;
  matrix.Add(kNoOp, kNumberDtypes, kSmallCounts, {4}, kBothPlacements, Drive::kOneThread);
  matrix.Add(kNoOp, {INFINI_DTYPE_I8, INFINI_DTYPE_U16, INFINI_DTYPE_F32, INFINI_DTYPE_F64}, {kLargeOddCount}, {4},
             kOutOfPlace, Drive::kOneThread);
  matrix.Add(kNoOp, {INFINI_DTYPE_BF16}, {kLargeOddCount}, {4}, kInPlace, Drive::kOneThread);
  matrix.Add(kNoOp, kNumberDtypes, {7}, {1, 2, 3}, kOutOfPlace, Drive::kThreadPerRank);
  matrix.Add(kNoOp, {INFINI_DTYPE_F32}, {7}, {8}, kOutOfPlace, Drive::kThreadPerRank);
  return matrix.params();
}

class AllGatherExact : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(AllGatherExact);

CTS_TEST_P(AllGatherExact, exact, "all_gather", "CCL-AG-1", "CCL-INPLACE-3", "CCL-INPLACE-5", "CCL-ORDER-1",
           "CCL-ORDER-2", "CCL-ORDER-3") {
  RunParamCase(CollectiveKind::kAllGather, GetParam());
}

std::vector<CollectiveParam> StreamOrderMatrix() {
  ParamMatrix matrix;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    matrix.Add(kNoOp, {INFINI_DTYPE_I64}, {kStreamOrderCount}, {4}, kOutOfPlace, drive);
  }
  return matrix.params();
}

class AllGatherStreamOrder : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(AllGatherStreamOrder);

CTS_TEST_P(AllGatherStreamOrder, after_memcpy_async, "all_gather", "CCL-ORDER-4", "CCL-AG-1") {
  RunParamCase(CollectiveKind::kAllGather, GetParam(), Feeding::kOnStream);
}

INSTANTIATE_TEST_SUITE_P(conformance, AllGatherExact, testing::ValuesIn(ExactMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllGatherStreamOrder, testing::ValuesIn(StreamOrderMatrix()),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
