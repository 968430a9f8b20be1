// Subject `reduce_scatter_v`: every op × number dtype, in place (the receive buffer at the
// rank's block of the send buffer) and out of place, per-rank counts that differ (odd,
// vector-aligned, 0, past a million), 1 to 8 ranks driven from one thread or one thread
// each, NULL receive buffers of empty blocks, and stream order with copies (spec sections
// CCL-RSV, CCL-NUM, CCL-INPLACE, CCL-ORDER). The machinery is ccl_variable.h's.
#include "ccl_variable.h"

namespace infinicts::ccl_cases {
namespace {

constexpr VariableKind kKind = VariableKind::kReduceScatterV;

std::vector<VariableParam> ExactMatrix() {
  std::vector<VariableParam> params;
  AddVariableParams(params, AllOps(), kNumberDtypes, {CountsPattern::kMixed}, {4}, {Placement::kOutOfPlace},
                    Drive::kOneThread);
  AddVariableParams(params, AllOps(), {INFINI_DTYPE_I8, INFINI_DTYPE_U32, INFINI_DTYPE_F16, INFINI_DTYPE_F32},
                    {CountsPattern::kMixed}, {4}, {Placement::kInPlace}, Drive::kOneThread);
  // The other patterns, one dtype per op.
  const std::vector<std::pair<infinicclReduceOp_t, infiniDtype_t>> one_each = {
      {INFINICCL_SUM, INFINI_DTYPE_I32}, {INFINICCL_PROD, INFINI_DTYPE_F64}, {INFINICCL_MAX, INFINI_DTYPE_BF16},
      {INFINICCL_MIN, INFINI_DTYPE_U16}, {INFINICCL_AVG, INFINI_DTYPE_F32}};
  for (const auto &[op, dtype] : one_each) {
    AddVariableParams(params, {op}, {dtype}, {CountsPattern::kZeroFirst, CountsPattern::kAligned}, {4},
                      {Placement::kOutOfPlace}, Drive::kOneThread);
  }
  AddVariableParams(params, {INFINICCL_SUM}, {INFINI_DTYPE_F32}, {CountsPattern::kLarge}, {4},
                    {Placement::kOutOfPlace}, Drive::kOneThread);
  AddVariableParams(params, {INFINICCL_AVG}, {INFINI_DTYPE_BF16}, {CountsPattern::kLarge}, {4}, {Placement::kInPlace},
                    Drive::kOneThread);
  AddVariableParams(params, {INFINICCL_SUM, INFINICCL_PROD, INFINICCL_AVG}, {INFINI_DTYPE_I16, INFINI_DTYPE_F32},
                    {CountsPattern::kMixed}, {2, 3}, {Placement::kOutOfPlace}, Drive::kThreadPerRank);
  AddVariableParams(params, {INFINICCL_MAX}, {INFINI_DTYPE_F32}, {CountsPattern::kMixed}, {1},
                    {Placement::kOutOfPlace}, Drive::kThreadPerRank);
  AddVariableParams(params, {INFINICCL_SUM, INFINICCL_AVG}, {INFINI_DTYPE_F32}, {CountsPattern::kMixed}, {8},
                    {Placement::kOutOfPlace}, Drive::kThreadPerRank);
  return params;
}

class ReduceScatterVExact : public cts::ParamCase<VariableParam> {};
CTS_ACROSS_PROCESSES(ReduceScatterVExact);

CTS_TEST_P(ReduceScatterVExact, exact, "reduce_scatter_v", "CCL-RSV-1", "CCL-RSV-2", "CCL-RSV-3", "CCL-NUM-1",
           "CCL-NUM-2", "CCL-NUM-3", "CCL-INPLACE-5", "CCL-ORDER-1", "CCL-ORDER-2", "CCL-ORDER-3") {
  RunVariableCase(kKind, GetParam());
}

// Ranks whose block is empty pass a NULL receive buffer (CCL-RSV-2).
std::vector<VariableParam> NullEmptyMatrix() {
  std::vector<VariableParam> params;
  AddVariableParams(params, {INFINICCL_SUM}, {INFINI_DTYPE_I32}, {CountsPattern::kMixed, CountsPattern::kZeroFirst},
                    {4}, {Placement::kOutOfPlace}, Drive::kOneThread);
  return params;
}

class ReduceScatterVNullEmpty : public cts::ParamCase<VariableParam> {};
CTS_ACROSS_PROCESSES(ReduceScatterVNullEmpty);

CTS_TEST_P(ReduceScatterVNullEmpty, null_recv_of_empty_block, "reduce_scatter_v", "CCL-RSV-2", "CCL-RSV-1") {
  const VariableParam &param = GetParam();
  RunVariableCase(kKind, param, Feeding::kBlocking, [&](CollectivePlan &plan) {
    PassNullForEmptyBlocks(kKind, CountsFor(param.pattern, param.ranks), plan);
  });
}

class ReduceScatterVStreamOrder : public cts::ParamCase<VariableParam> {};
CTS_ACROSS_PROCESSES(ReduceScatterVStreamOrder);

CTS_TEST_P(ReduceScatterVStreamOrder, after_memcpy_async, "reduce_scatter_v", "CCL-ORDER-4", "CCL-RSV-1") {
  RunVariableCase(kKind, GetParam(), Feeding::kOnStream);
}

INSTANTIATE_TEST_SUITE_P(conformance, ReduceScatterVExact, testing::ValuesIn(ExactMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, ReduceScatterVNullEmpty, testing::ValuesIn(NullEmptyMatrix()),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, ReduceScatterVStreamOrder,
                         testing::ValuesIn(StreamOrderParams(INFINICCL_SUM, INFINI_DTYPE_BF16)), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
