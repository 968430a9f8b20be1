// MoeAlign: the flat slots of topk_ids grouped by expert, each group padded to a multiple of
// block_size, for the block-wise grouped GEMMs of a fused MoE (spec section OP-MOEALIGN). One
// pass counts each expert's slots, a prefix sum places the groups, a second pass writes each
// slot into its group in increasing order (so the result is deterministic, which the spec
// does not ask). An optional expert_map (a raw buffer) renames each id to a local expert, −1
// leaving the slot out; without one, ids outside [0, num_experts) are left out too.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/tensor.h"
#include "infiniop.h"

namespace infinicts::ref::op {
namespace {

struct MoeAlignPlan {
  size_t tokens = 0, topk = 0, num_experts = 0, block_size = 0;
  ptrdiff_t ids_row = 0, ids_column = 0;  // topk_ids' strides
  size_t sorted_length = 0, expert_blocks = 0;
  ptrdiff_t sorted_stride = 0, blocks_stride = 0;
};

bool IsI32(const TensorLayout &t) { return t.dtype == INFINI_DTYPE_I32; }

// The longest padded total any routing reaches: each non-empty group pads by block_size − 1 at
// most, and no group exceeds block_size per slot.
size_t LongestTotal(size_t numel, size_t num_experts, size_t block_size) {
  return std::min(numel * block_size, numel + num_experts * (block_size - 1));
}

infiniStatus_t MakePlan(const TensorLayout &sorted, const TensorLayout &blocks, const TensorLayout &total,
                        const TensorLayout &ids, size_t num_experts, size_t block_size, MoeAlignPlan *plan) {
  if (!IsI32(sorted) || !IsI32(blocks) || !IsI32(total) || !IsI32(ids)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (ids.ndim() != 2 || sorted.ndim() != 1 || blocks.ndim() != 1 || total.ndim() != 1 || total.shape[0] != 1) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (num_experts == 0 || block_size == 0 || num_experts > INT32_MAX) return INFINI_STATUS_BAD_PARAM;
  const size_t numel = ids.shape[0] * ids.shape[1];
  const size_t longest = LongestTotal(numel, num_experts, block_size);
  if (sorted.shape[0] < longest || blocks.shape[0] < (longest + block_size - 1) / block_size) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (sorted.shape[0] > INT32_MAX) return INFINI_STATUS_BAD_TENSOR_SHAPE;  // positions are I32
  if (OverlapsItself(sorted) || OverlapsItself(blocks)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->tokens = ids.shape[0];
  plan->topk = ids.shape[1];
  plan->num_experts = num_experts;
  plan->block_size = block_size;
  plan->ids_row = ids.strides[0];
  plan->ids_column = ids.strides[1];
  plan->sorted_length = sorted.shape[0];
  plan->expert_blocks = blocks.shape[0];
  plan->sorted_stride = sorted.strides[0];
  plan->blocks_stride = blocks.strides[0];
  return INFINI_STATUS_SUCCESS;
}

void Run(const MoeAlignPlan &plan, int32_t *sorted, int32_t *blocks, int32_t *total, const int32_t *ids,
         const int32_t *expert_map, bool pad) {
  const size_t numel = plan.tokens * plan.topk;
  const auto experts = static_cast<int64_t>(plan.num_experts);
  // Each slot's expert, −1 where it is left out.
  std::vector<int32_t> expert_of(numel);
  std::vector<size_t> counts(plan.num_experts, 0);
  for (size_t t = 0, i = 0; t < plan.tokens; ++t) {
    for (size_t j = 0; j < plan.topk; ++j, ++i) {
      int64_t e = ids[static_cast<ptrdiff_t>(t) * plan.ids_row + static_cast<ptrdiff_t>(j) * plan.ids_column];
      if (expert_map != nullptr) e = e >= 0 ? expert_map[e] : -1;
      if (e < 0 || e >= experts) e = -1;
      expert_of[i] = static_cast<int32_t>(e);
      if (e >= 0) ++counts[static_cast<size_t>(e)];
    }
  }
  std::vector<size_t> next(plan.num_experts);
  size_t at = 0;
  for (size_t e = 0; e < plan.num_experts; ++e) {
    next[e] = at;
    const size_t padded = (counts[e] + plan.block_size - 1) / plan.block_size * plan.block_size;
    for (size_t b = at / plan.block_size; b < (at + padded) / plan.block_size; ++b) {
      blocks[static_cast<ptrdiff_t>(b) * plan.blocks_stride] = static_cast<int32_t>(e);
    }
    if (pad) {
      for (size_t p = at + counts[e]; p < at + padded; ++p) {
        sorted[static_cast<ptrdiff_t>(p) * plan.sorted_stride] = static_cast<int32_t>(numel);
      }
    }
    at += padded;
  }
  *total = static_cast<int32_t>(at);
  if (pad) {
    for (size_t p = at; p < plan.sorted_length; ++p) {
      sorted[static_cast<ptrdiff_t>(p) * plan.sorted_stride] = static_cast<int32_t>(numel);
    }
  }
  for (size_t i = 0; i < numel; ++i) {
    if (expert_of[i] < 0) continue;
    sorted[static_cast<ptrdiff_t>(next[static_cast<size_t>(expert_of[i])]++) * plan.sorted_stride] =
        static_cast<int32_t>(i);
  }
}

class MoeAlignDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kMoeAlign;

  MoeAlignDescriptor(const InfiniopHandle &handle, std::shared_ptr<const MoeAlignPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *sorted, void *blocks, void *total,
                         const void *ids, const void *expert_map, int pad, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t numel = plan_->tokens * plan_->topk;
    INFINIOP_RETURN_IF_ERROR(
        CheckData({{sorted, plan_->sorted_length}, {blocks, plan_->expert_blocks}, {total, 1}, {ids, numel}}));
    std::shared_ptr<const MoeAlignPlan> plan = plan_;
    return Launch(*this, stream, [plan, sorted, blocks, total, ids, expert_map, pad] {
      Run(*plan, static_cast<int32_t *>(sorted), static_cast<int32_t *>(blocks), static_cast<int32_t *>(total),
          static_cast<const int32_t *>(ids), static_cast<const int32_t *>(expert_map), pad != 0);
    });
  }

 private:
  std::shared_ptr<const MoeAlignPlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateMoeAlignDescriptor(
    infiniopHandle_t handle, infiniopMoeAlignDescriptor_t *desc_ptr, infiniopTensorDescriptor_t sorted_token_ids_desc,
    infiniopTensorDescriptor_t expert_ids_desc, infiniopTensorDescriptor_t num_tokens_post_padded_desc,
    infiniopTensorDescriptor_t topk_ids_desc, size_t num_experts, size_t block_size) {
  return CreateDescriptor(handle, desc_ptr,
                          {sorted_token_ids_desc, expert_ids_desc, num_tokens_post_padded_desc, topk_ids_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<MoeAlignPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*sorted_token_ids_desc, *expert_ids_desc,
                                                              *num_tokens_post_padded_desc, *topk_ids_desc,
                                                              num_experts, block_size, plan.get()));
                            made->reset(new MoeAlignDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetMoeAlignWorkspaceSize(infiniopMoeAlignDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<MoeAlignDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopMoeAlign(infiniopMoeAlignDescriptor_t desc, void *workspace, size_t workspace_size,
                                           void *sorted_token_ids, void *expert_ids, void *num_tokens_post_padded,
                                           const void *topk_ids, const void *expert_map, int pad_sorted_token_ids,
                                           void *stream) {
  MoeAlignDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, sorted_token_ids, expert_ids, num_tokens_post_padded, topk_ids,
                       expert_map, pad_sorted_token_ids, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyMoeAlignDescriptor(infiniopMoeAlignDescriptor_t desc) {
  return DestroyDescriptor<MoeAlignDescriptor>(desc);
}
