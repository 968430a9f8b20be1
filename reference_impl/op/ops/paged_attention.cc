// PagedAttention: decode attention over paged KV pools, one query per sequence. For sequence
// s with L = seq_lens[s] keys and head h (kv head h / (heads / kv_heads)): score_j =
// scale·q·K_j + slope_h·(j − (L − 1)) for j < L, p = softmax(score) with the max subtracted,
// out[s, h, :] = Σ_j p_j·V_j, K_j and V_j read through block_tables (ops/paged_kv.h has the
// layouts). F32 arithmetic, one rounding when out is stored.
//
// One work item per (sequence, kv head): its group of query heads shares each key and value
// row, which is read from the pool once and converted to F32 once for all of them. Only the
// L live rows are read. A sequence whose length or blocks do not fit gets NaN. On NVIDIA:
// cuda/paged_attention.h.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#include "ops/paged_kv.h"

namespace infinicts::ref::op {
namespace {

// Rows fetched ahead of the one being read: the next block lies anywhere in the pool, where
// the hardware prefetcher does not follow.
constexpr size_t kPrefetchRows = 8;

template <class T>
void RunDecode(const PagedAttentionPlan &plan, T *out, const T *q, const T *k_cache, const T *v_cache,
               const std::vector<int64_t> &lengths, const std::vector<int64_t> &tables, const float *alibi) {
  const size_t group = plan.Group(), head_size = plan.head_size, value_size = plan.value_size;
  const size_t items = plan.num_seqs * plan.kv_heads;
  ParallelFor(items, 1, [&](size_t begin, size_t end) {
    std::vector<float> queries(group * head_size), key(head_size), value(value_size), acc(group * value_size);
    std::vector<float> scores, inverse_sums(group);
    for (size_t item = begin; item < end; ++item) {
      const size_t s = item / plan.kv_heads, kv = item % plan.kv_heads, first_head = kv * group;
      auto out_row = [&](size_t g) {
        return out + static_cast<ptrdiff_t>(s) * plan.out_row + static_cast<ptrdiff_t>(first_head + g) * plan.out_head;
      };
      const int64_t length = lengths[s];
      if (!SequenceFits(plan, tables, s, length)) {
        for (size_t g = 0; g < group; ++g) {
          for (size_t e = 0; e < value_size; ++e) out_row(g)[e] = Num<T>::Store(QuietNan());
        }
        continue;
      }
      const size_t keys = static_cast<size_t>(length);
      const int64_t *blocks = tables.data() + s * plan.max_blocks;
      auto pool_row = [&](const T *pool, ptrdiff_t block_stride, ptrdiff_t head_stride, ptrdiff_t slot_stride,
                          size_t j) {
        return pool + blocks[j / plan.block_size] * block_stride + static_cast<ptrdiff_t>(kv) * head_stride +
               static_cast<ptrdiff_t>(j % plan.block_size) * slot_stride;
      };
      for (size_t g = 0; g < group; ++g) {
        LoadRowF32(q + static_cast<ptrdiff_t>(s) * plan.q_row + static_cast<ptrdiff_t>(first_head + g) * plan.q_head,
                   head_size, queries.data() + g * head_size);
      }
      // Scores, head-major: scores[g·L + j].
      scores.resize(group * keys);
      for (size_t j = 0; j < keys; ++j) {
        if (j + kPrefetchRows < keys) {
          PrefetchRow(pool_row(k_cache, plan.k_block, plan.k_head, plan.k_slot, j + kPrefetchRows), head_size * sizeof(T));
        }
        LoadRowF32(pool_row(k_cache, plan.k_block, plan.k_head, plan.k_slot, j), head_size, key.data());
        for (size_t g = 0; g < group; ++g) {
          scores[g * keys + j] = plan.scale * DotF32(queries.data() + g * head_size, key.data(), head_size);
        }
      }
      for (size_t g = 0; g < group; ++g) {
        float *row = scores.data() + g * keys;
        if (plan.has_alibi) {
          const float slope = alibi[static_cast<ptrdiff_t>(first_head + g) * plan.alibi_step];
          const int64_t last = length - 1;
          for (size_t j = 0; j < keys; ++j) row[j] += slope * static_cast<float>(static_cast<int64_t>(j) - last);
        }
        inverse_sums[g] = static_cast<float>(1.0 / ExpShiftedInPlace(row, keys));
      }
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (size_t j = 0; j < keys; ++j) {
        if (j + kPrefetchRows < keys) {
          PrefetchRow(pool_row(v_cache, plan.v_block, plan.v_head, plan.v_slot, j + kPrefetchRows),
                      value_size * sizeof(T));
        }
        LoadRowF32(pool_row(v_cache, plan.v_block, plan.v_head, plan.v_slot, j), value_size, value.data());
        for (size_t g = 0; g < group; ++g) {
          AxpyF32(scores[g * keys + j], value.data(), acc.data() + g * value_size, value_size);
        }
      }
      for (size_t g = 0; g < group; ++g) {
        T *row = out_row(g);
        for (size_t e = 0; e < value_size; ++e) row[e] = Num<T>::Store(acc[g * value_size + e] * inverse_sums[g]);
      }
    }
  });
}

class PagedAttentionDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPagedAttention;

  PagedAttentionDescriptor(const InfiniopHandle &handle, std::shared_ptr<const PagedAttentionPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *out, const void *q, const void *k_cache,
                         const void *v_cache, const void *block_tables, const void *seq_lens,
                         const void *alibi_slopes, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const PagedAttentionPlan &p = *plan_;
    const size_t pool_rows = p.num_blocks * p.kv_heads * p.block_size;
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, p.rows * p.heads * p.value_size},
                                        {q, p.rows * p.heads * p.head_size},
                                        {k_cache, pool_rows * p.head_size},
                                        {v_cache, pool_rows * p.value_size},
                                        {block_tables, p.num_seqs * p.max_blocks},
                                        {seq_lens, p.num_seqs}}));
    // Without ALiBi in the descriptor the pointer is not looked at (OP-PAGEDATTENTION-5).
    if (p.has_alibi) INFINIOP_RETURN_IF_ERROR(CheckData({{alibi_slopes, p.heads}}));
    const float *alibi = p.has_alibi ? static_cast<const float *>(alibi_slopes) : nullptr;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::PagedAttention(*this, DeviceGeometry(p, false), p.dtype, out, q, k_cache, v_cache, block_tables,
                                  seq_lens, nullptr, alibi, stream);
    }
#endif
    std::shared_ptr<const PagedAttentionPlan> plan = plan_;
    return Launch(*this, stream, [=] {
      const std::vector<int64_t> lengths = ReadIndices(plan->index_dtype, seq_lens, plan->num_seqs, plan->lens_step);
      const std::vector<int64_t> tables = ReadBlockTables(*plan, block_tables);
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, f16_t> || std::is_same_v<T, bf16_t>) {
          RunDecode(*plan, static_cast<T *>(out), static_cast<const T *>(q), static_cast<const T *>(k_cache),
                    static_cast<const T *>(v_cache), lengths, tables, alibi);
        }
      });
    });
  }

 private:
  std::shared_ptr<const PagedAttentionPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(PagedAttention)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePagedAttentionDescriptor(
    infiniopHandle_t handle, infiniopPagedAttentionDescriptor_t *desc_ptr, infiniopTensorDescriptor_t out_desc,
    infiniopTensorDescriptor_t q_desc, infiniopTensorDescriptor_t k_cache_desc, infiniopTensorDescriptor_t v_cache_desc,
    infiniopTensorDescriptor_t block_tables_desc, infiniopTensorDescriptor_t seq_lens_desc,
    infiniopTensorDescriptor_t alibi_slopes_desc, float scale) {
  return CreateDescriptor(handle, desc_ptr,
                          {out_desc, q_desc, k_cache_desc, v_cache_desc, block_tables_desc, seq_lens_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<PagedAttentionPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePagedAttentionPlan(
                                *out_desc, *q_desc, *k_cache_desc, *v_cache_desc, *block_tables_desc, *seq_lens_desc,
                                nullptr, alibi_slopes_desc, scale, plan.get()));
                            made->reset(new PagedAttentionDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetPagedAttentionWorkspaceSize(infiniopPagedAttentionDescriptor_t desc,
                                                                 size_t *size) {
  return GetWorkspaceSize<PagedAttentionDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPagedAttention(infiniopPagedAttentionDescriptor_t desc, void *workspace,
                                                 size_t workspace_size, void *out, const void *q, const void *k_cache,
                                                 const void *v_cache, const void *block_tables, const void *seq_lens,
                                                 const void *alibi_slopes, void *stream) {
  PagedAttentionDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, out, q, k_cache, v_cache, block_tables, seq_lens, alibi_slopes,
                       stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPagedAttentionDescriptor(infiniopPagedAttentionDescriptor_t desc) {
  return DestroyDescriptor<PagedAttentionDescriptor>(desc);
}
