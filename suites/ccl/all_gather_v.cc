// Subject `all_gather_v`: every number dtype, in place (the send buffer at the rank's offset
// in the receive buffer) and out of place, per-rank counts that differ (odd, vector-aligned,
// 0, past a million), 1 to 8 ranks driven from one thread or one thread each, NULL send
// buffers of empty blocks, and stream order with copies (spec sections CCL-AGV,
// CCL-INPLACE, CCL-ORDER). The machinery is ccl_variable.h's.
#include "ccl_variable.h"

namespace infinicts::ccl_cases {
namespace {

constexpr VariableKind kKind = VariableKind::kAllGatherV;
const std::vector<Placement> kBoth = {Placement::kOutOfPlace, Placement::kInPlace};

std::vector<VariableParam> ExactMatrix() {
  std::vector<VariableParam> params;
  AddVariableParams(params, kNoOp, kNumberDtypes, {CountsPattern::kMixed}, {4}, kBoth, Drive::kOneThread);
  AddVariableParams(params, kNoOp, {INFINI_DTYPE_U8, INFINI_DTYPE_BF16, INFINI_DTYPE_I64},
                    {CountsPattern::kZeroFirst, CountsPattern::kAligned}, {4}, kBoth, Drive::kOneThread);
  AddVariableParams(params, kNoOp, {INFINI_DTYPE_F32}, {CountsPattern::kLarge}, {4}, {Placement::kOutOfPlace},
                    Drive::kOneThread);
  AddVariableParams(params, kNoOp, {INFINI_DTYPE_U16}, {CountsPattern::kLarge}, {4}, {Placement::kInPlace},
                    Drive::kOneThread);
  // One rank of the zero-first pattern would have nothing to gather: it starts at 2.
  AddVariableParams(params, kNoOp, {INFINI_DTYPE_I32, INFINI_DTYPE_F16}, {CountsPattern::kMixed}, {1, 2, 3},
                    {Placement::kOutOfPlace}, Drive::kThreadPerRank);
  AddVariableParams(params, kNoOp, {INFINI_DTYPE_I32, INFINI_DTYPE_F16}, {CountsPattern::kZeroFirst}, {2, 3},
                    {Placement::kOutOfPlace}, Drive::kThreadPerRank);
  AddVariableParams(params, kNoOp, {INFINI_DTYPE_F32}, {CountsPattern::kMixed}, {8}, {Placement::kOutOfPlace},
                    Drive::kThreadPerRank);
  return params;
}

class AllGatherVExact : public cts::ParamCase<VariableParam> {};
CTS_ACROSS_PROCESSES(AllGatherVExact);

CTS_TEST_P(AllGatherVExact, exact, "all_gather_v", "CCL-AGV-1", "CCL-AGV-2", "CCL-AGV-3", "CCL-INPLACE-5",
           "CCL-ORDER-1", "CCL-ORDER-2", "CCL-ORDER-3") {
  RunVariableCase(kKind, GetParam());
}

// Ranks whose block is empty pass a NULL send buffer (CCL-AGV-2).
std::vector<VariableParam> NullEmptyMatrix() {
  std::vector<VariableParam> params;
  AddVariableParams(params, kNoOp, {INFINI_DTYPE_F32}, {CountsPattern::kMixed, CountsPattern::kZeroFirst}, {4},
                    {Placement::kOutOfPlace}, Drive::kOneThread);
  return params;
}

class AllGatherVNullEmpty : public cts::ParamCase<VariableParam> {};
CTS_ACROSS_PROCESSES(AllGatherVNullEmpty);

CTS_TEST_P(AllGatherVNullEmpty, null_send_of_empty_block, "all_gather_v", "CCL-AGV-2", "CCL-AGV-1") {
  const VariableParam &param = GetParam();
  RunVariableCase(kKind, param, Feeding::kBlocking, [&](CollectivePlan &plan) {
    PassNullForEmptyBlocks(kKind, CountsFor(param.pattern, param.ranks), plan);
  });
}

class AllGatherVStreamOrder : public cts::ParamCase<VariableParam> {};
CTS_ACROSS_PROCESSES(AllGatherVStreamOrder);

CTS_TEST_P(AllGatherVStreamOrder, after_memcpy_async, "all_gather_v", "CCL-ORDER-4", "CCL-AGV-1") {
  RunVariableCase(kKind, GetParam(), Feeding::kOnStream);
}

INSTANTIATE_TEST_SUITE_P(conformance, AllGatherVExact, testing::ValuesIn(ExactMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllGatherVNullEmpty, testing::ValuesIn(NullEmptyMatrix()),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllGatherVStreamOrder,
                         testing::ValuesIn(StreamOrderParams(std::nullopt, INFINI_DTYPE_I64)), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
