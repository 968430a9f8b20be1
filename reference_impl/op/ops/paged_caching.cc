// PagedCaching: scatters each token's keys and values into a paged cache pool. With
// slot = slot_mapping[t], block = slot / block_size and offset = slot % block_size:
// k_cache[block, h, offset, :] = k[t, h, :] (v likewise) for every head; a negative slot
// (padding) writes nothing, and the rest of both pools is left as it was. Pools
// [num_blocks, kv_heads, block_size, head_dim] (v's head dim may differ from k's), k and v
// [num_tokens, kv_heads, head_dim], one dtype of F16/BF16/F32; slot_mapping I64
// [num_tokens]. A slot past the pool's end is skipped. On NVIDIA: cuda/paged_caching.h.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#include "ops/cache_rows.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/paged_caching.h"
#endif

namespace infinicts::ref::op {
namespace {

using Strides3 = std::array<ptrdiff_t, 3>;
using Strides4 = std::array<ptrdiff_t, 4>;

struct PagedCachingPlan {
  size_t element_size = 0;
  size_t tokens = 0, heads = 0, k_dim = 0, v_dim = 0, blocks = 0, block_size = 0;
  ptrdiff_t slot_step = 1;
  Strides4 k_cache{}, v_cache{};  // [block, head, offset, dim]
  Strides3 k{}, v{};              // [token, head, dim]
#ifdef INFINIOP_WITH_CUDA
  cuda::PagedCachingGeometry device;  // the same, for the CUDA path
#endif
};

infiniStatus_t MakePlan(const TensorLayout &k_cache, const TensorLayout &v_cache, const TensorLayout &k,
                        const TensorLayout &v, const TensorLayout &slots, PagedCachingPlan *plan) {
  if (!IsCacheDtype(k.dtype) || v.dtype != k.dtype || k_cache.dtype != k.dtype || v_cache.dtype != k.dtype ||
      slots.dtype != INFINI_DTYPE_I64) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (k.ndim() != 3 || v.ndim() != 3 || k_cache.ndim() != 4 || v_cache.ndim() != 4 || slots.ndim() != 1) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t tokens = slots.shape[0], heads = k.shape[1];
  const size_t blocks = k_cache.shape[0], block_size = k_cache.shape[2];
  const bool fits = k.shape[0] == tokens && v.shape[0] == tokens && v.shape[1] == heads &&
                    k_cache.shape[1] == heads && k_cache.shape[3] == k.shape[2] && v_cache.shape[0] == blocks &&
                    v_cache.shape[1] == heads && v_cache.shape[2] == block_size && v_cache.shape[3] == v.shape[2];
  if (!fits) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (OverlapsItself(k_cache) || OverlapsItself(v_cache)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->element_size = DtypeSize(k.dtype);
  plan->tokens = tokens;
  plan->heads = heads;
  plan->k_dim = k.shape[2];
  plan->v_dim = v.shape[2];
  plan->blocks = blocks;
  plan->block_size = block_size;
  plan->slot_step = slots.strides[0];
  plan->k_cache = {k_cache.strides[0], k_cache.strides[1], k_cache.strides[2], k_cache.strides[3]};
  plan->v_cache = {v_cache.strides[0], v_cache.strides[1], v_cache.strides[2], v_cache.strides[3]};
  plan->k = {k.strides[0], k.strides[1], k.strides[2]};
  plan->v = {v.strides[0], v.strides[1], v.strides[2]};
#ifdef INFINIOP_WITH_CUDA
  const auto pool = [](const Strides4 &cache, const Strides3 &entries, size_t dim) {
    return cuda::PagedPool{{cache[0], cache[1], cache[2], cache[3]}, {entries[0], entries[1], entries[2]},
                           static_cast<int64_t>(dim)};
  };
  plan->device = {static_cast<int64_t>(tokens), static_cast<int64_t>(heads), static_cast<int64_t>(blocks),
                  static_cast<int64_t>(block_size), plan->slot_step, pool(plan->k_cache, plan->k, plan->k_dim),
                  pool(plan->v_cache, plan->v, plan->v_dim)};
#endif
  return INFINI_STATUS_SUCCESS;
}

// Heads [first, first + count) of token t into (block, offset) of one pool.
void CopyToken(const PagedCachingPlan &plan, const Strides4 &pool_strides, void *pool, const Strides3 &entry_strides,
               const void *entries, size_t length, size_t t, size_t first, size_t count, size_t block, size_t offset) {
  const ptrdiff_t pool_at = static_cast<ptrdiff_t>(block) * pool_strides[0] +
                            static_cast<ptrdiff_t>(first) * pool_strides[1] +
                            static_cast<ptrdiff_t>(offset) * pool_strides[2];
  const ptrdiff_t entry_at =
      static_cast<ptrdiff_t>(t) * entry_strides[0] + static_cast<ptrdiff_t>(first) * entry_strides[1];
  // One row per head: the pool's rows step by its head stride, the entries' by theirs.
  const RowRun run{ElementAt(pool, pool_at, plan.element_size), pool_strides[1], pool_strides[3],
                   ElementAt(entries, entry_at, plan.element_size), entry_strides[1], entry_strides[2]};
  CopyRows(run, count, length, plan.element_size);
}

void Run(const PagedCachingPlan &plan, void *k_cache, void *v_cache, const void *k, const void *v,
         const void *slot_mapping) {
  const size_t rows = plan.tokens * plan.heads;  // one row per (token, head)
  if (rows == 0 || plan.block_size == 0) return;
  const int64_t *slot_values = static_cast<const int64_t *>(slot_mapping);
  std::vector<int64_t> slots(plan.tokens);
  for (size_t t = 0; t < plan.tokens; ++t) slots[t] = slot_values[static_cast<ptrdiff_t>(t) * plan.slot_step];
  const uint64_t pool_slots = static_cast<uint64_t>(plan.blocks) * plan.block_size;
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / std::max<size_t>(plan.k_dim + plan.v_dim, 1));
  ParallelFor(rows, grain, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end;) {
      const size_t t = row / plan.heads, h = row % plan.heads;
      const size_t count = std::min(end - row, plan.heads - h);  // the chunk's heads of this token
      const int64_t slot = slots[t];
      if (slot >= 0 && static_cast<uint64_t>(slot) < pool_slots) {  // negative: padding, nothing written
        const size_t block = static_cast<size_t>(slot) / plan.block_size;
        const size_t offset = static_cast<size_t>(slot) % plan.block_size;
        CopyToken(plan, plan.k_cache, k_cache, plan.k, k, plan.k_dim, t, h, count, block, offset);
        CopyToken(plan, plan.v_cache, v_cache, plan.v, v, plan.v_dim, t, h, count, block, offset);
      }
      row += count;
    }
  });
}

class PagedCachingDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPagedCaching;

  PagedCachingDescriptor(const InfiniopHandle &handle, std::shared_ptr<const PagedCachingPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *k_cache, void *v_cache, const void *k,
                         const void *v, const void *slot_mapping, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const PagedCachingPlan &p = *plan_;
    const size_t pool_rows = p.blocks * p.heads * p.block_size, token_rows = p.tokens * p.heads;
    INFINIOP_RETURN_IF_ERROR(CheckData({{k_cache, pool_rows * p.k_dim},
                                        {v_cache, pool_rows * p.v_dim},
                                        {k, token_rows * p.k_dim},
                                        {v, token_rows * p.v_dim},
                                        {slot_mapping, p.tokens}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::PagedCaching(*this, p.device, p.element_size, k_cache, v_cache, k, v, slot_mapping, stream);
    }
#endif
    std::shared_ptr<const PagedCachingPlan> plan = plan_;
    return Launch(*this, stream, [=] { Run(*plan, k_cache, v_cache, k, v, slot_mapping); });
  }

 private:
  std::shared_ptr<const PagedCachingPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(PagedCaching)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePagedCachingDescriptor(infiniopHandle_t handle,
                                                               infiniopPagedCachingDescriptor_t *desc_ptr,
                                                               infiniopTensorDescriptor_t k_cache_desc,
                                                               infiniopTensorDescriptor_t v_cache_desc,
                                                               infiniopTensorDescriptor_t k_desc,
                                                               infiniopTensorDescriptor_t v_desc,
                                                               infiniopTensorDescriptor_t slot_mapping_desc) {
  return CreateDescriptor(handle, desc_ptr, {k_cache_desc, v_cache_desc, k_desc, v_desc, slot_mapping_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<PagedCachingPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*k_cache_desc, *v_cache_desc, *k_desc, *v_desc,
                                                              *slot_mapping_desc, plan.get()));
                            made->reset(new PagedCachingDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetPagedCachingWorkspaceSize(infiniopPagedCachingDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<PagedCachingDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPagedCaching(infiniopPagedCachingDescriptor_t desc, void *workspace,
                                               size_t workspace_size, void *k_cache, void *v_cache, const void *k,
                                               const void *v, const void *slot_mapping, void *stream) {
  PagedCachingDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, k_cache, v_cache, k, v, slot_mapping, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPagedCachingDescriptor(infiniopPagedCachingDescriptor_t desc) {
  return DestroyDescriptor<PagedCachingDescriptor>(desc);
}
