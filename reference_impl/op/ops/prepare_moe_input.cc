// PrepareMoeInput: the plan of CUTLASS's grouped MoE GEMMs from topk_ids (spec section
// OP-PREPAREMOEINPUT): each expert's slot count as the two GEMMs' problem sizes, their offsets
// (and the block scales' offsets, counts rounded up to 128), and the slot permutations, slots
// in increasing order within an expert (deterministic, which the spec does not ask). Ids
// outside [0, num_experts) go nowhere. Every tensor through its strides.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/tensor.h"
#include "infiniop.h"

namespace infinicts::ref::op {
namespace {

constexpr int64_t kBlockscaleAlignment = 128;

// A 1-D I32 tensor's (or problem sizes' [E, 3] or [3E]) elements: the stride of element i.
struct Strided {
  ptrdiff_t stride = 1, row = 0;  // row: [E, 3]'s stride between experts (0 for 1-D)
  ptrdiff_t At(size_t expert, size_t column) const {
    if (row != 0) return static_cast<ptrdiff_t>(expert) * row + static_cast<ptrdiff_t>(column) * stride;
    return static_cast<ptrdiff_t>(expert * 3 + column) * stride;
  }
};

struct PreparePlan {
  size_t tokens = 0, topk = 0, num_experts = 0;
  int32_t n = 0, k = 0;
  ptrdiff_t ids_row = 0, ids_column = 0;
  ptrdiff_t offsets_stride = 0, blockscale_stride = 0, input_stride = 0, output_stride = 0;
  Strided sizes1, sizes2;
  bool blockscale = false;
};

bool IsI32(const TensorLayout &t) { return t.dtype == INFINI_DTYPE_I32; }

// Problem sizes: [E, 3] or [3E].
bool IsSizesShape(const TensorLayout &t, size_t experts) {
  return (t.ndim() == 1 && t.shape[0] == 3 * experts) || (t.ndim() == 2 && t.shape[0] == experts && t.shape[1] == 3);
}

Strided SizesWalk(const TensorLayout &t) {
  if (t.ndim() == 1) return {t.strides[0], 0};
  return {t.strides[1], t.strides[0]};
}

infiniStatus_t MakePlan(const TensorLayout &offsets, const TensorLayout *blockscale, const TensorLayout &sizes1,
                        const TensorLayout &sizes2, const TensorLayout &input_perm, const TensorLayout &output_perm,
                        const TensorLayout &ids, size_t num_experts, size_t n, size_t k, PreparePlan *plan) {
  if (!IsI32(offsets) || !IsI32(sizes1) || !IsI32(sizes2) || !IsI32(input_perm) || !IsI32(output_perm) ||
      !IsI32(ids) || (blockscale != nullptr && !IsI32(*blockscale))) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (num_experts == 0 || n == 0 || k == 0 || num_experts > INT32_MAX || 2 * n > INT32_MAX || k > INT32_MAX) {
    return INFINI_STATUS_BAD_PARAM;
  }
  if (ids.ndim() != 2 || offsets.ndim() != 1 || offsets.shape[0] != num_experts + 1 || input_perm.ndim() != 1 ||
      output_perm.ndim() != 1 || !IsSizesShape(sizes1, num_experts) || !IsSizesShape(sizes2, num_experts)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (blockscale != nullptr && (blockscale->ndim() != 1 || blockscale->shape[0] != num_experts + 1)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t slots = ids.shape[0] * ids.shape[1];
  if (input_perm.shape[0] < slots || output_perm.shape[0] < slots || slots > INT32_MAX) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  for (const TensorLayout *out : {&offsets, &sizes1, &sizes2, &input_perm, &output_perm, blockscale}) {
    if (out != nullptr && OverlapsItself(*out)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  }
  plan->tokens = ids.shape[0];
  plan->topk = ids.shape[1];
  plan->num_experts = num_experts;
  plan->n = static_cast<int32_t>(n);
  plan->k = static_cast<int32_t>(k);
  plan->ids_row = ids.strides[0];
  plan->ids_column = ids.strides[1];
  plan->offsets_stride = offsets.strides[0];
  plan->blockscale = blockscale != nullptr;
  plan->blockscale_stride = blockscale != nullptr ? blockscale->strides[0] : 0;
  plan->input_stride = input_perm.strides[0];
  plan->output_stride = output_perm.strides[0];
  plan->sizes1 = SizesWalk(sizes1);
  plan->sizes2 = SizesWalk(sizes2);
  return INFINI_STATUS_SUCCESS;
}

struct PrepareOutputs {
  int32_t *offsets, *blockscale, *sizes1, *sizes2, *input_perm, *output_perm;
};

void Run(const PreparePlan &plan, const PrepareOutputs &out, const int32_t *ids) {
  const size_t slots = plan.tokens * plan.topk;
  const auto experts = static_cast<int64_t>(plan.num_experts);
  const auto id_at = [&](size_t i) {
    const size_t t = i / plan.topk, j = i % plan.topk;
    return static_cast<int64_t>(ids[static_cast<ptrdiff_t>(t) * plan.ids_row + static_cast<ptrdiff_t>(j) * plan.ids_column]);
  };
  std::vector<int32_t> counts(plan.num_experts, 0);
  for (size_t i = 0; i < slots; ++i) {
    const int64_t e = id_at(i);
    if (e >= 0 && e < experts) ++counts[static_cast<size_t>(e)];
  }
  std::vector<int32_t> next(plan.num_experts);
  int32_t offset = 0, rounded = 0;
  out.offsets[0] = 0;
  if (plan.blockscale) out.blockscale[0] = 0;
  for (size_t e = 0; e < plan.num_experts; ++e) {
    next[e] = offset;
    offset += counts[e];
    rounded += static_cast<int32_t>((counts[e] + kBlockscaleAlignment - 1) / kBlockscaleAlignment * kBlockscaleAlignment);
    out.offsets[static_cast<ptrdiff_t>(e + 1) * plan.offsets_stride] = offset;
    if (plan.blockscale) out.blockscale[static_cast<ptrdiff_t>(e + 1) * plan.blockscale_stride] = rounded;
    const int32_t first[3] = {counts[e], 2 * plan.n, plan.k}, second[3] = {counts[e], plan.k, plan.n};
    for (size_t c = 0; c < 3; ++c) {
      out.sizes1[plan.sizes1.At(e, c)] = first[c];
      out.sizes2[plan.sizes2.At(e, c)] = second[c];
    }
  }
  for (size_t i = 0; i < slots; ++i) {
    const int64_t e = id_at(i);
    if (e < 0 || e >= experts) continue;
    const int32_t at = next[static_cast<size_t>(e)]++;
    out.input_perm[static_cast<ptrdiff_t>(at) * plan.input_stride] = static_cast<int32_t>(i / plan.topk);
    out.output_perm[static_cast<ptrdiff_t>(i) * plan.output_stride] = at;
  }
}

class PrepareMoeInputDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPrepareMoeInput;

  PrepareMoeInputDescriptor(const InfiniopHandle &handle, std::shared_ptr<const PreparePlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, const PrepareOutputs &out, const void *ids,
                         void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t slots = plan_->tokens * plan_->topk, experts = plan_->num_experts;
    INFINIOP_RETURN_IF_ERROR(CheckData({{out.offsets, experts + 1},
                                        {out.blockscale, plan_->blockscale ? experts + 1 : 0},
                                        {out.sizes1, 3 * experts},
                                        {out.sizes2, 3 * experts},
                                        {out.input_perm, slots},
                                        {out.output_perm, slots},
                                        {ids, slots}}));
    std::shared_ptr<const PreparePlan> plan = plan_;
    return Launch(*this, stream, [plan, out, ids] { Run(*plan, out, static_cast<const int32_t *>(ids)); });
  }

 private:
  std::shared_ptr<const PreparePlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePrepareMoeInputDescriptor(
    infiniopHandle_t handle, infiniopPrepareMoeInputDescriptor_t *desc_ptr, infiniopTensorDescriptor_t expert_offsets_desc,
    infiniopTensorDescriptor_t blockscale_offsets_desc, infiniopTensorDescriptor_t problem_sizes1_desc,
    infiniopTensorDescriptor_t problem_sizes2_desc, infiniopTensorDescriptor_t input_permutation_desc,
    infiniopTensorDescriptor_t output_permutation_desc, infiniopTensorDescriptor_t topk_ids_desc, size_t num_experts,
    size_t n, size_t k) {
  // blockscale_offsets is optional: a NULL descriptor leaves it out.
  return CreateDescriptor(handle, desc_ptr,
                          {expert_offsets_desc, problem_sizes1_desc, problem_sizes2_desc, input_permutation_desc,
                           output_permutation_desc, topk_ids_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<PreparePlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*expert_offsets_desc, blockscale_offsets_desc,
                                                              *problem_sizes1_desc, *problem_sizes2_desc,
                                                              *input_permutation_desc, *output_permutation_desc,
                                                              *topk_ids_desc, num_experts, n, k, plan.get()));
                            made->reset(new PrepareMoeInputDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetPrepareMoeInputWorkspaceSize(infiniopPrepareMoeInputDescriptor_t desc,
                                                                  size_t *size) {
  return GetWorkspaceSize<PrepareMoeInputDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPrepareMoeInput(infiniopPrepareMoeInputDescriptor_t desc, void *workspace,
                                                  size_t workspace_size, void *expert_offsets, void *blockscale_offsets,
                                                  void *problem_sizes1, void *problem_sizes2, void *input_permutation,
                                                  void *output_permutation, const void *topk_ids, void *stream) {
  PrepareMoeInputDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  const PrepareOutputs out = {static_cast<int32_t *>(expert_offsets),  static_cast<int32_t *>(blockscale_offsets),
                              static_cast<int32_t *>(problem_sizes1),  static_cast<int32_t *>(problem_sizes2),
                              static_cast<int32_t *>(input_permutation), static_cast<int32_t *>(output_permutation)};
  return self->Compute(workspace, workspace_size, out, topk_ids, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPrepareMoeInputDescriptor(infiniopPrepareMoeInputDescriptor_t desc) {
  return DestroyDescriptor<PrepareMoeInputDescriptor>(desc);
}
