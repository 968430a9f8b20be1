// KVCaching: appends each sequence's new keys and values to its cache,
// k_cache[b, h, past_kv_lengths[b] + s, :] = k[b, h, s, :] (v likewise); the rest of both
// caches is left as it was. Caches [batch, kv_heads, max_seq_len, head_dim], k and v
// [batch, kv_heads, new_len, head_dim], one dtype of F16/BF16/F32; lengths I32 or I64.
// A sequence whose entries would not fit (past < 0 or past + new_len > max_seq_len) is
// skipped. On NVIDIA: cuda/kv_caching.h.
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
#include "cuda/kv_caching.h"
#endif

namespace infinicts::ref::op {
namespace {

using Strides4 = std::array<ptrdiff_t, 4>;

struct KVCachingPlan {
  size_t element_size = 0;
  infiniDtype_t length_dtype = INFINI_DTYPE_I64;
  size_t batch = 0, heads = 0, max_seq = 0, new_len = 0, head_dim = 0;
  ptrdiff_t length_step = 1;
  Strides4 k_cache{}, v_cache{}, k{}, v{};  // [batch, head, position, dim]
#ifdef INFINIOP_WITH_CUDA
  cuda::KVCachingGeometry device;  // the same, for the CUDA path
#endif
};

Strides4 StridesOf(const TensorLayout &layout) {
  return {layout.strides[0], layout.strides[1], layout.strides[2], layout.strides[3]};
}

infiniStatus_t MakePlan(const TensorLayout &k_cache, const TensorLayout &v_cache, const TensorLayout &k,
                        const TensorLayout &v, const TensorLayout &lengths, KVCachingPlan *plan) {
  if (!IsCacheDtype(k_cache.dtype) || v_cache.dtype != k_cache.dtype || k.dtype != k_cache.dtype ||
      v.dtype != k_cache.dtype || (lengths.dtype != INFINI_DTYPE_I32 && lengths.dtype != INFINI_DTYPE_I64)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (k_cache.ndim() != 4 || k.ndim() != 4 || !SameShape(k_cache, v_cache) || !SameShape(k, v) ||
      lengths.ndim() != 1) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t batch = k_cache.shape[0], heads = k_cache.shape[1], max_seq = k_cache.shape[2],
               head_dim = k_cache.shape[3];
  if (k.shape[0] != batch || k.shape[1] != heads || k.shape[3] != head_dim || k.shape[2] > max_seq ||
      lengths.shape[0] != batch) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(k_cache) || OverlapsItself(v_cache)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->element_size = DtypeSize(k_cache.dtype);
  plan->length_dtype = lengths.dtype;
  plan->batch = batch;
  plan->heads = heads;
  plan->max_seq = max_seq;
  plan->new_len = k.shape[2];
  plan->head_dim = head_dim;
  plan->length_step = lengths.strides[0];
  plan->k_cache = StridesOf(k_cache);
  plan->v_cache = StridesOf(v_cache);
  plan->k = StridesOf(k);
  plan->v = StridesOf(v);
#ifdef INFINIOP_WITH_CUDA
  cuda::KVCachingGeometry &g = plan->device;
  g = {static_cast<int64_t>(batch), static_cast<int64_t>(heads), static_cast<int64_t>(max_seq),
       static_cast<int64_t>(plan->new_len), static_cast<int64_t>(head_dim), plan->length_step,
       lengths.dtype == INFINI_DTYPE_I64, {}, {}, {}, {}};
  for (int d = 0; d < 4; ++d) {
    g.k_cache[d] = plan->k_cache[d];
    g.v_cache[d] = plan->v_cache[d];
    g.k[d] = plan->k[d];
    g.v[d] = plan->v[d];
  }
#endif
  return INFINI_STATUS_SUCCESS;
}

// The rows [first, first + rows) of one (b, h) of `entries` written at positions past + s.
void CopyEntries(const KVCachingPlan &plan, const Strides4 &cache_strides, void *cache, const Strides4 &entry_strides,
                 const void *entries, size_t b, size_t h, size_t first, size_t rows, int64_t past) {
  const ptrdiff_t bb = static_cast<ptrdiff_t>(b), hh = static_cast<ptrdiff_t>(h);
  const ptrdiff_t position = static_cast<ptrdiff_t>(past) + static_cast<ptrdiff_t>(first);
  const ptrdiff_t cache_at =
      bb * cache_strides[0] + hh * cache_strides[1] + position * cache_strides[2];
  const ptrdiff_t entry_at = bb * entry_strides[0] + hh * entry_strides[1] +
                             static_cast<ptrdiff_t>(first) * entry_strides[2];
  const RowRun run{ElementAt(cache, cache_at, plan.element_size), cache_strides[2], cache_strides[3],
                   ElementAt(entries, entry_at, plan.element_size), entry_strides[2], entry_strides[3]};
  CopyRows(run, rows, plan.head_dim, plan.element_size);
}

void Run(const KVCachingPlan &plan, void *k_cache, void *v_cache, const void *k, const void *v, const void *lengths) {
  const size_t rows = plan.batch * plan.heads * plan.new_len;  // one row of head_dim per (b, h, s)
  if (rows == 0) return;
  std::vector<int64_t> past(plan.batch);
  DispatchInteger(plan.length_dtype, [&](auto tag) {
    using I = typename decltype(tag)::type;
    const I *values = static_cast<const I *>(lengths);
    for (size_t b = 0; b < plan.batch; ++b) past[b] = IndexValue(values[static_cast<ptrdiff_t>(b) * plan.length_step]);
  });
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / std::max<size_t>(plan.head_dim, 1));
  ParallelFor(rows, grain, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end;) {
      const size_t s = row % plan.new_len, bh = row / plan.new_len;
      const size_t h = bh % plan.heads, b = bh / plan.heads;
      const size_t run = std::min(end - row, plan.new_len - s);  // the chunk's rows of this (b, h)
      const int64_t p = past[b];
      if (p >= 0 && static_cast<uint64_t>(p) <= plan.max_seq - plan.new_len) {
        CopyEntries(plan, plan.k_cache, k_cache, plan.k, k, b, h, s, run, p);
        CopyEntries(plan, plan.v_cache, v_cache, plan.v, v, b, h, s, run, p);
      }
      row += run;
    }
  });
}

class KVCachingDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kKVCaching;

  KVCachingDescriptor(const InfiniopHandle &handle, std::shared_ptr<const KVCachingPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *k_cache, void *v_cache, const void *k,
                         const void *v, const void *lengths, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const KVCachingPlan &p = *plan_;
    const size_t cache_count = p.batch * p.heads * p.max_seq * p.head_dim;
    const size_t entry_count = p.batch * p.heads * p.new_len * p.head_dim;
    INFINIOP_RETURN_IF_ERROR(CheckData({{k_cache, cache_count},
                                        {v_cache, cache_count},
                                        {k, entry_count},
                                        {v, entry_count},
                                        {lengths, p.batch}}));
    std::shared_ptr<const KVCachingPlan> plan = plan_;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::KVCaching(*this, plan->device, plan->element_size, k_cache, v_cache, k, v, lengths, stream);
    }
#endif
    return Launch(*this, stream, [=] { Run(*plan, k_cache, v_cache, k, v, lengths); });
  }

 private:
  std::shared_ptr<const KVCachingPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(KVCaching)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateKVCachingDescriptor(infiniopHandle_t handle,
                                                            infiniopKVCachingDescriptor_t *desc_ptr,
                                                            infiniopTensorDescriptor_t k_cache,
                                                            infiniopTensorDescriptor_t v_cache,
                                                            infiniopTensorDescriptor_t k, infiniopTensorDescriptor_t v,
                                                            infiniopTensorDescriptor_t past_kv_lengths) {
  return CreateDescriptor(handle, desc_ptr, {k_cache, v_cache, k, v, past_kv_lengths},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<KVCachingPlan>();
                            INFINIOP_RETURN_IF_ERROR(
                                MakePlan(*k_cache, *v_cache, *k, *v, *past_kv_lengths, plan.get()));
                            made->reset(new KVCachingDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetKVCachingWorkspaceSize(infiniopKVCachingDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<KVCachingDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopKVCaching(infiniopKVCachingDescriptor_t desc, void *workspace,
                                            size_t workspace_size, void *k_cache, void *v_cache, const void *k,
                                            const void *v, const void *past_kv_lengths, void *stream) {
  KVCachingDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, k_cache, v_cache, k, v, past_kv_lengths, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyKVCachingDescriptor(infiniopKVCachingDescriptor_t desc) {
  return DestroyDescriptor<KVCachingDescriptor>(desc);
}
