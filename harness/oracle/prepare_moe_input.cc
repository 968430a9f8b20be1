// PrepareMoeInput (docs/spec/op.md OP-PREPAREMOEINPUT-3, -4): the per-expert GEMM sizes, offsets
// and slot permutations of CUTLASS's grouped MoE GEMMs, from topk_ids.
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

namespace {

constexpr int64_t kBlockscaleAlignment = 128;

}  // namespace

PrepareMoeInputResult PrepareMoeInput(const HostTensor &topk_ids, size_t num_experts, size_t n, size_t k) {
  Require(topk_ids.shape().size() == 2, "PrepareMoeInput", "topk_ids must be [tokens, topk]");
  Require(num_experts > 0, "PrepareMoeInput", "num_experts must be positive");
  const size_t slots = topk_ids.numel(), topk = topk_ids.shape()[1];
  const auto experts = static_cast<int64_t>(num_experts);
  std::vector<int64_t> counts(num_experts, 0);
  for (size_t i = 0; i < slots; ++i) {
    const int64_t e = IntegerAt(topk_ids, i);
    if (e >= 0 && e < experts) ++counts[static_cast<size_t>(e)];
  }
  std::vector<int64_t> offsets(num_experts + 1, 0), blockscale(num_experts + 1, 0), sizes1, sizes2;
  for (size_t e = 0; e < num_experts; ++e) {
    offsets[e + 1] = offsets[e] + counts[e];
    blockscale[e + 1] =
        blockscale[e] + (counts[e] + kBlockscaleAlignment - 1) / kBlockscaleAlignment * kBlockscaleAlignment;
    sizes1.insert(sizes1.end(), {counts[e], 2 * static_cast<int64_t>(n), static_cast<int64_t>(k)});
    sizes2.insert(sizes2.end(), {counts[e], static_cast<int64_t>(k), static_cast<int64_t>(n)});
  }
  std::vector<int64_t> input_permutation(slots, -1), output_permutation(slots, -1);
  std::vector<int64_t> next(offsets.begin(), offsets.end() - 1);
  for (size_t i = 0; i < slots; ++i) {
    const int64_t e = IntegerAt(topk_ids, i);
    if (e < 0 || e >= experts) continue;
    const int64_t at = next[static_cast<size_t>(e)]++;
    input_permutation[static_cast<size_t>(at)] = static_cast<int64_t>(i / topk);
    output_permutation[i] = at;
  }
  PrepareMoeInputResult result;
  result.expert_offsets = I64Tensor({num_experts + 1}, offsets);
  result.blockscale_offsets = I64Tensor({num_experts + 1}, blockscale);
  result.problem_sizes1 = I64Tensor({num_experts, 3}, sizes1);
  result.problem_sizes2 = I64Tensor({num_experts, 3}, sizes2);
  result.input_permutation = I64Tensor({slots}, input_permutation);
  result.output_permutation = I64Tensor({slots}, output_permutation);
  return result;
}

}  // namespace infinicts::oracle
