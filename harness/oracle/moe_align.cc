// MoeAlign (docs/spec/op.md OP-MOEALIGN-3, -4): the flat slots of topk_ids grouped by expert, each
// group padded to a multiple of block_size, positions in increasing order.
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

MoeAlignResult MoeAlign(const HostTensor &topk_ids, const std::vector<int64_t> &expert_map, size_t num_experts,
                        size_t block_size, size_t sorted_length, size_t expert_blocks) {
  Require(topk_ids.shape().size() == 2, "MoeAlign", "topk_ids must be [tokens, topk]");
  Require(num_experts > 0 && block_size > 0, "MoeAlign", "num_experts and block_size must be positive");
  const size_t numel = topk_ids.numel();
  // Each slot's expert, −1 for a slot the map leaves out.
  std::vector<int64_t> expert_of(numel);
  for (size_t i = 0; i < numel; ++i) {
    int64_t id = IntegerAt(topk_ids, i);
    if (!expert_map.empty()) {
      Require(id >= 0 && static_cast<size_t>(id) < expert_map.size(), "MoeAlign", "an id outside expert_map");
      id = expert_map[static_cast<size_t>(id)];
    }
    Require(id >= -1 && id < static_cast<int64_t>(num_experts), "MoeAlign", "an expert outside [0, num_experts)");
    Require(id >= 0 || !expert_map.empty(), "MoeAlign", "a negative id without expert_map");
    expert_of[i] = id;
  }
  MoeAlignResult result;
  result.group_counts.assign(num_experts, 0);
  for (int64_t e : expert_of) {
    if (e >= 0) ++result.group_counts[static_cast<size_t>(e)];
  }
  result.group_starts.assign(num_experts + 1, 0);
  for (size_t e = 0; e < num_experts; ++e) {
    const size_t padded = (result.group_counts[e] + block_size - 1) / block_size * block_size;
    result.group_starts[e + 1] = result.group_starts[e] + padded;
  }
  const size_t total = result.group_starts[num_experts];
  Require(total <= sorted_length, "MoeAlign", "sorted_token_ids shorter than the padded total");
  Require(total / block_size <= expert_blocks, "MoeAlign", "expert_ids shorter than the blocks");
  std::vector<int64_t> sorted(sorted_length, static_cast<int64_t>(numel));
  std::vector<size_t> filled(num_experts, 0);
  for (size_t i = 0; i < numel; ++i) {
    if (expert_of[i] < 0) continue;
    const size_t e = static_cast<size_t>(expert_of[i]);
    sorted[result.group_starts[e] + filled[e]++] = static_cast<int64_t>(i);
  }
  std::vector<int64_t> blocks(expert_blocks, -1);
  for (size_t e = 0; e < num_experts; ++e) {
    for (size_t b = result.group_starts[e] / block_size; b < result.group_starts[e + 1] / block_size; ++b) {
      blocks[b] = static_cast<int64_t>(e);
    }
  }
  result.sorted_token_ids = I64Tensor({sorted_length}, sorted);
  result.expert_ids = I64Tensor({expert_blocks}, blocks);
  result.num_tokens_post_padded = I64Tensor({1}, {static_cast<int64_t>(total)});
  return result;
}

}  // namespace infinicts::oracle
