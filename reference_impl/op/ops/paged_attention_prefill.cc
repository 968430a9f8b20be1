// PagedAttentionPrefill: causal attention of each sequence's packed new queries over its
// paged keys. Sequence s has L = seq_lens[s] keys and n = cum[s + 1] − cum[s] queries, the
// last n positions: query i (row cum[s] + i) sits at P = L − n + i and attends keys 0..P,
// score_j = scale·q·K_j + slope_h·(j − P), out = Σ_j softmax(score)_j·V_j (ops/paged_kv.h has
// the layouts).
//
// Per (sequence, kv head): the sequence's keys and values are gathered through the block
// table into dense F32 matrices K [L, head_size] and V [L, value_size]; then, for tiles of
// queries (the rows of every query head of the group, query-major), OpenBLAS computes
// S = scale·Q·Kᵀ over the keys the tile's last query sees, each row is masked past its own P,
// biased, exponentiated with its max subtracted, and OpenBLAS computes O = exp(S)·V, divided
// by the row's sum when stored. F32 throughout, one rounding when out is stored. The BLAS
// calls come from this thread (OpenBLAS threads them itself); gathers, softmax rows and
// stores are split over the pool. A sequence whose counts, length or blocks do not fit gets
// NaN in its rows. On NVIDIA:
// cuda/paged_attention.h.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/blas.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#include "ops/paged_kv.h"

namespace infinicts::ref::op {
namespace {

// Rows of S per tile (queries × heads of the group): large enough for OpenBLAS, small
// enough that S [rows, L] stays a few MiB at L = 4608.
constexpr size_t kTileRows = 256;

struct SequenceSpan {
  size_t first = 0, count = 0, keys = 0;  // rows [first, first + count) of q; keys of the sequence
};

template <class T>
void StoreNanRows(const PagedAttentionPlan &plan, T *out, const SequenceSpan &span) {
  for (size_t r = span.first; r < span.first + span.count; ++r) {
    for (size_t h = 0; h < plan.heads; ++h) {
      T *row = out + static_cast<ptrdiff_t>(r) * plan.out_row + static_cast<ptrdiff_t>(h) * plan.out_head;
      for (size_t e = 0; e < plan.value_size; ++e) row[e] = Num<T>::Store(QuietNan());
    }
  }
}

// Rows [0, keys) of one kv head of a pool, through the sequence's blocks, into dense F32.
template <class T>
void GatherRows(const PagedAttentionPlan &plan, const T *pool, ptrdiff_t block_stride, ptrdiff_t head_stride,
                ptrdiff_t slot_stride, size_t width, const int64_t *blocks, size_t kv, size_t keys, float *dense) {
  ParallelFor(keys, std::max<size_t>(1, 4096 / std::max<size_t>(width, 1)), [&](size_t begin, size_t end) {
    for (size_t j = begin; j < end; ++j) {
      const T *row = pool + blocks[j / plan.block_size] * block_stride + static_cast<ptrdiff_t>(kv) * head_stride +
                     static_cast<ptrdiff_t>(j % plan.block_size) * slot_stride;
      LoadRowF32(row, width, dense + j * width);
    }
  });
}

template <class T>
void RunPrefill(const PagedAttentionPlan &plan, T *out, const T *q, const T *k_cache, const T *v_cache,
                const std::vector<int64_t> &lengths, const std::vector<int64_t> &cum,
                const std::vector<int64_t> &tables, const float *alibi) {
  const size_t group = plan.Group(), head_size = plan.head_size, value_size = plan.value_size;
  if (group == 0) return;  // no query head: nothing to write
  const size_t tile_queries = std::max<size_t>(1, kTileRows / group);
  std::vector<float> keys_f32, values_f32, q_tile, s_tile, o_tile, inverse_sums;
  for (size_t s = 0; s < plan.num_seqs; ++s) {
    // A sequence whose rows are not inside q is left alone: there is no row to mark.
    if (cum[s] < 0 || cum[s + 1] < cum[s] || static_cast<uint64_t>(cum[s + 1]) > plan.rows) continue;
    SequenceSpan span;
    span.first = static_cast<size_t>(cum[s]);
    span.count = static_cast<size_t>(cum[s + 1] - cum[s]);
    if (span.count == 0) continue;
    if (!SequenceFits(plan, tables, s, lengths[s]) || static_cast<int64_t>(span.count) > lengths[s]) {
      StoreNanRows(plan, out, span);
      continue;
    }
    span.keys = static_cast<size_t>(lengths[s]);
    const size_t history = span.keys - span.count;  // keys before the first query's own
    const int64_t *blocks = tables.data() + s * plan.max_blocks;
    keys_f32.resize(span.keys * head_size);
    values_f32.resize(span.keys * value_size);
    for (size_t kv = 0; kv < plan.kv_heads; ++kv) {
      GatherRows(plan, k_cache, plan.k_block, plan.k_head, plan.k_slot, head_size, blocks, kv, span.keys,
                 keys_f32.data());
      GatherRows(plan, v_cache, plan.v_block, plan.v_head, plan.v_slot, value_size, blocks, kv, span.keys,
                 values_f32.data());
      for (size_t i0 = 0; i0 < span.count; i0 += tile_queries) {
        const size_t i1 = std::min(span.count, i0 + tile_queries);
        const size_t rows = (i1 - i0) * group;  // row r: query i0 + r / group, head kv·group + r % group
        const size_t width = history + i1;      // keys 0 .. P of the tile's last query
        q_tile.resize(rows * head_size);
        s_tile.resize(rows * width);
        o_tile.resize(rows * value_size);
        inverse_sums.resize(rows);
        auto head_of = [&](size_t r) { return kv * group + r % group; };
        auto query_of = [&](size_t r) { return i0 + r / group; };
        ParallelFor(rows, std::max<size_t>(1, 4096 / std::max<size_t>(head_size, 1)), [&](size_t begin, size_t end) {
          for (size_t r = begin; r < end; ++r) {
            const T *row = q + static_cast<ptrdiff_t>(span.first + query_of(r)) * plan.q_row +
                           static_cast<ptrdiff_t>(head_of(r)) * plan.q_head;
            LoadRowF32(row, head_size, q_tile.data() + r * head_size);
          }
        });
        // Leading dimensions of at least 1, as BLAS asks, even for empty rows.
        const int m = static_cast<int>(rows), n = static_cast<int>(width), d = static_cast<int>(head_size);
        const int ld_q = std::max(d, 1);
        BlasGemm(false, true, m, n, d, plan.scale, q_tile.data(), ld_q, keys_f32.data(), ld_q, 0.0f, s_tile.data(), n);
        ParallelFor(rows, std::max<size_t>(1, 4096 / std::max<size_t>(width, 1)), [&](size_t begin, size_t end) {
          for (size_t r = begin; r < end; ++r) {
            float *row = s_tile.data() + r * width;
            const size_t position = history + query_of(r);  // P: this query's own key
            if (plan.has_alibi) {
              const float slope = alibi[static_cast<ptrdiff_t>(head_of(r)) * plan.alibi_step];
              for (size_t j = 0; j <= position; ++j) {
                row[j] += slope * static_cast<float>(static_cast<int64_t>(j) - static_cast<int64_t>(position));
              }
            }
            inverse_sums[r] = static_cast<float>(1.0 / ExpShiftedInPlace(row, position + 1));
            std::fill(row + position + 1, row + width, 0.0f);  // the keys after P: masked
          }
        });
        const int dv = static_cast<int>(value_size), ld_v = std::max(dv, 1);
        BlasGemm(false, false, m, dv, n, 1.0f, s_tile.data(), n, values_f32.data(), ld_v, 0.0f, o_tile.data(), ld_v);
        ParallelFor(rows, std::max<size_t>(1, 4096 / std::max<size_t>(value_size, 1)), [&](size_t begin, size_t end) {
          for (size_t r = begin; r < end; ++r) {
            T *row = out + static_cast<ptrdiff_t>(span.first + query_of(r)) * plan.out_row +
                     static_cast<ptrdiff_t>(head_of(r)) * plan.out_head;
            const float *result = o_tile.data() + r * value_size;
            for (size_t e = 0; e < value_size; ++e) row[e] = Num<T>::Store(result[e] * inverse_sums[r]);
          }
        });
      }
    }
  }
}

class PagedAttentionPrefillDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPagedAttentionPrefill;

  PagedAttentionPrefillDescriptor(const InfiniopHandle &handle, std::shared_ptr<const PagedAttentionPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *out, const void *q, const void *k_cache,
                         const void *v_cache, const void *block_tables, const void *seq_lens,
                         const void *cum_seq_lens_q, const void *alibi_slopes, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const PagedAttentionPlan &p = *plan_;
    const size_t pool_rows = p.num_blocks * p.kv_heads * p.block_size;
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, p.rows * p.heads * p.value_size},
                                        {q, p.rows * p.heads * p.head_size},
                                        {k_cache, pool_rows * p.head_size},
                                        {v_cache, pool_rows * p.value_size},
                                        {block_tables, p.num_seqs * p.max_blocks},
                                        {seq_lens, p.num_seqs},
                                        {cum_seq_lens_q, p.num_seqs + 1}}));
    // Without ALiBi in the descriptor the pointer is not looked at (OP-PAGEDATTENTIONPREFILL-5).
    if (p.has_alibi) INFINIOP_RETURN_IF_ERROR(CheckData({{alibi_slopes, p.heads}}));
    const float *alibi = p.has_alibi ? static_cast<const float *>(alibi_slopes) : nullptr;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::PagedAttention(*this, DeviceGeometry(p, true), p.dtype, out, q, k_cache, v_cache, block_tables,
                                  seq_lens, cum_seq_lens_q, alibi, stream);
    }
#endif
    std::shared_ptr<const PagedAttentionPlan> plan = plan_;
    return Launch(*this, stream, [=] {
      const std::vector<int64_t> lengths = ReadIndices(plan->index_dtype, seq_lens, plan->num_seqs, plan->lens_step);
      const std::vector<int64_t> cum =
          ReadIndices(plan->index_dtype, cum_seq_lens_q, plan->num_seqs + 1, plan->cum_step);
      const std::vector<int64_t> tables = ReadBlockTables(*plan, block_tables);
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, f16_t> || std::is_same_v<T, bf16_t>) {
          RunPrefill(*plan, static_cast<T *>(out), static_cast<const T *>(q), static_cast<const T *>(k_cache),
                     static_cast<const T *>(v_cache), lengths, cum, tables, alibi);
        }
      });
    });
  }

 private:
  std::shared_ptr<const PagedAttentionPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(PagedAttentionPrefill)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePagedAttentionPrefillDescriptor(
    infiniopHandle_t handle, infiniopPagedAttentionPrefillDescriptor_t *desc_ptr, infiniopTensorDescriptor_t out_desc,
    infiniopTensorDescriptor_t q_desc, infiniopTensorDescriptor_t k_cache_desc, infiniopTensorDescriptor_t v_cache_desc,
    infiniopTensorDescriptor_t block_tables_desc, infiniopTensorDescriptor_t seq_lens_desc,
    infiniopTensorDescriptor_t cum_seq_lens_q_desc, infiniopTensorDescriptor_t alibi_slopes_desc, float scale) {
  return CreateDescriptor(
      handle, desc_ptr,
      {out_desc, q_desc, k_cache_desc, v_cache_desc, block_tables_desc, seq_lens_desc, cum_seq_lens_q_desc},
      [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
        auto plan = std::make_shared<PagedAttentionPlan>();
        INFINIOP_RETURN_IF_ERROR(MakePagedAttentionPlan(*out_desc, *q_desc, *k_cache_desc, *v_cache_desc,
                                                        *block_tables_desc, *seq_lens_desc, cum_seq_lens_q_desc,
                                                        alibi_slopes_desc, scale, plan.get()));
        made->reset(new PagedAttentionPrefillDescriptor(h, std::move(plan)));
        return INFINI_STATUS_SUCCESS;
      });
}

__INFINI_C infiniStatus_t infiniopGetPagedAttentionPrefillWorkspaceSize(infiniopPagedAttentionPrefillDescriptor_t desc,
                                                                        size_t *size) {
  return GetWorkspaceSize<PagedAttentionPrefillDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPagedAttentionPrefill(infiniopPagedAttentionPrefillDescriptor_t desc,
                                                        void *workspace, size_t workspace_size, void *out,
                                                        const void *q, const void *k_cache, const void *v_cache,
                                                        const void *block_tables, const void *seq_lens,
                                                        const void *cum_seq_lens_q, const void *alibi_slopes,
                                                        void *stream) {
  PagedAttentionPrefillDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, out, q, k_cache, v_cache, block_tables, seq_lens, cum_seq_lens_q,
                       alibi_slopes, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPagedAttentionPrefillDescriptor(
    infiniopPagedAttentionPrefillDescriptor_t desc) {
  return DestroyDescriptor<PagedAttentionPrefillDescriptor>(desc);
}
