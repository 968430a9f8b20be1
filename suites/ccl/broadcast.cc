// Subject `broadcast`: every number dtype from the first, a middle and the last root, in
// and out of place, counts from 1 to 16 Mi, 1 to 4 ranks driven from one thread or one
// thread each, and stream order with copies (spec sections CCL-BC, CCL-INPLACE, CCL-ORDER).
#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

std::vector<CollectiveParam> ExactMatrix() {
  ParamMatrix matrix;
  matrix.Add(kNoOp, kNumberDtypes, kSmallCounts, {4}, kBothPlacements, Drive::kOneThread, {0, 1, 3});
  matrix.Add(kNoOp, {INFINI_DTYPE_U8, INFINI_DTYPE_I16, INFINI_DTYPE_F32, INFINI_DTYPE_U64}, {kLargeOddCount}, {4},
             kOutOfPlace, Drive::kOneThread, {3});
  matrix.Add(kNoOp, {INFINI_DTYPE_F64}, {kLargeOddCount}, {4}, kInPlace, Drive::kOneThread, {1});
  matrix.Add(kNoOp, {INFINI_DTYPE_U8}, {kHugeCount}, {4}, kOutOfPlace, Drive::kOneThread, {2});
  // Every rank count, the last rank as root, one thread per rank.
  for (int ranks : {1, 2, 3}) {
    matrix.Add(kNoOp, kNumberDtypes, {7}, {ranks}, kOutOfPlace, Drive::kThreadPerRank, {ranks - 1});
  }
  matrix.Add(kNoOp, {INFINI_DTYPE_F32}, {7}, {8}, kOutOfPlace, Drive::kThreadPerRank, {5});
  return matrix.params();
}

class BroadcastExact : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(BroadcastExact);

CTS_TEST_P(BroadcastExact, exact, "broadcast", "CCL-BC-1", "CCL-INPLACE-2", "CCL-INPLACE-5", "CCL-ORDER-1",
           "CCL-ORDER-2", "CCL-ORDER-3") {
  RunParamCase(CollectiveKind::kBroadcast, GetParam());
}

// The other ranks' send buffers are never read (CCL-BC-1), so they may be NULL, as NCCL allows.
std::vector<CollectiveParam> NullSendMatrix() {
  ParamMatrix matrix;
  matrix.Add(kNoOp, {INFINI_DTYPE_F32, INFINI_DTYPE_U8}, {7, 4096}, {4}, kOutOfPlace, Drive::kOneThread, {0, 3});
  matrix.Add(kNoOp, {INFINI_DTYPE_BF16}, {4096}, {2}, kOutOfPlace, Drive::kThreadPerRank, {1});
  return matrix.params();
}

class BroadcastNullSend : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(BroadcastNullSend);

CTS_TEST_P(BroadcastNullSend, null_send_off_root, "broadcast", "CCL-BC-1") {
  const int root = GetParam().root.value_or(0);
  RunParamCase(CollectiveKind::kBroadcast, GetParam(), Feeding::kBlocking, [root](CollectivePlan &plan) {
    plan.issue = [issue = plan.issue, root](const World &world, int r, void *send, void *recv) {
      return issue(world, r, r == root ? send : nullptr, recv);
    };
  });
}

std::vector<CollectiveParam> StreamOrderMatrix() {
  ParamMatrix matrix;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    matrix.Add(kNoOp, {INFINI_DTYPE_U16}, {kStreamOrderCount}, {4}, kOutOfPlace, drive, {2});
  }
  return matrix.params();
}

class BroadcastStreamOrder : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(BroadcastStreamOrder);

CTS_TEST_P(BroadcastStreamOrder, after_memcpy_async, "broadcast", "CCL-ORDER-4", "CCL-BC-1") {
  RunParamCase(CollectiveKind::kBroadcast, GetParam(), Feeding::kOnStream);
}

INSTANTIATE_TEST_SUITE_P(conformance, BroadcastExact, testing::ValuesIn(ExactMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, BroadcastNullSend, testing::ValuesIn(NullSendMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, BroadcastStreamOrder, testing::ValuesIn(StreamOrderMatrix()),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
