// What PagedAttention and PagedAttentionPrefill share: the descriptor checks of q, out, the
// paged pools and the index tensors; the index values read at compute time; and the rows of
// a pool read as F32.
//
// Pools [num_blocks, kv_heads, block_size, head_size] (v: value_size), key position j of
// sequence s in slot j % block_size of block block_tables[s, j / block_size]. q and out
// [rows, heads, head_size / value_size] (rows: one per sequence for decode, the packed
// queries for prefill). F16 or BF16 throughout; the index tensors share one dtype of I32,
// I64 or U32; ALiBi slopes F32 [heads] or none. Every row along head_size must have unit
// stride (the spec's MAY); the other strides are free.
#ifndef INFINICTS_REF_OP_OPS_PAGED_KV_H
#define INFINICTS_REF_OP_OPS_PAGED_KV_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/dtype.h"
#include "core/simd.h"
#include "core/status.h"
#include "core/tensor.h"
#include "ops/paged_fit.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/paged_attention.h"
#endif

namespace infinicts::ref::op {

struct PagedAttentionPlan {
  infiniDtype_t dtype = INFINI_DTYPE_F16;
  infiniDtype_t index_dtype = INFINI_DTYPE_I64;
  size_t rows = 0, num_seqs = 0, heads = 0, kv_heads = 0, head_size = 0, value_size = 0;
  size_t num_blocks = 0, block_size = 0, max_blocks = 0;
  ptrdiff_t q_row = 0, q_head = 0, out_row = 0, out_head = 0;       // strides of q and out
  ptrdiff_t k_block = 0, k_head = 0, k_slot = 0;                    // k_cache's
  ptrdiff_t v_block = 0, v_head = 0, v_slot = 0;                    // v_cache's
  ptrdiff_t table_row = 0, table_column = 0, lens_step = 0, cum_step = 0, alibi_step = 0;
  bool has_alibi = false;
  float scale = 1.0f;

  size_t Group() const { return heads / kv_heads; }
};

inline bool IsPagedIndexDtype(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_I32 || dtype == INFINI_DTYPE_I64 || dtype == INFINI_DTYPE_U32;
}

// A dim of more than one element with a stride other than 1 along it.
inline bool StridedAlong(const TensorLayout &t, size_t dim) { return t.shape[dim] > 1 && t.strides[dim] != 1; }

// The checks in the order OP-DESC-10 recommends: dtypes, shapes, strides. `cum` is NULL for
// decode (then q has one row per sequence), `alibi` NULL without ALiBi.
inline infiniStatus_t MakePagedAttentionPlan(const TensorLayout &out, const TensorLayout &q, const TensorLayout &k,
                                             const TensorLayout &v, const TensorLayout &tables,
                                             const TensorLayout &lens, const TensorLayout *cum,
                                             const TensorLayout *alibi, float scale, PagedAttentionPlan *plan) {
  const infiniDtype_t dtype = q.dtype;
  if ((dtype != INFINI_DTYPE_F16 && dtype != INFINI_DTYPE_BF16) || out.dtype != dtype || k.dtype != dtype ||
      v.dtype != dtype || !IsPagedIndexDtype(tables.dtype) || lens.dtype != tables.dtype ||
      (cum != nullptr && cum->dtype != tables.dtype) || (alibi != nullptr && alibi->dtype != INFINI_DTYPE_F32)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (q.ndim() != 3 || out.ndim() != 3 || k.ndim() != 4 || v.ndim() != 4 || tables.ndim() != 2 || lens.ndim() != 1 ||
      (cum != nullptr && cum->ndim() != 1) || (alibi != nullptr && alibi->ndim() != 1)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t rows = q.shape[0], heads = q.shape[1], head_size = q.shape[2];
  const size_t num_blocks = k.shape[0], kv_heads = k.shape[1], block_size = k.shape[2];
  const size_t value_size = v.shape[3], num_seqs = lens.shape[0];
  const bool sizes_fit = value_size == head_size || (head_size == 576 && value_size == 512);  // MLA
  const bool fits = kv_heads > 0 && heads % kv_heads == 0 && block_size > 0 && k.shape[3] == head_size &&
                    v.shape[0] == num_blocks && v.shape[1] == kv_heads && v.shape[2] == block_size && sizes_fit &&
                    out.shape[0] == rows && out.shape[1] == heads && out.shape[2] == value_size &&
                    tables.shape[0] == num_seqs && (cum != nullptr ? cum->shape[0] == num_seqs + 1 : rows == num_seqs) &&
                    (alibi == nullptr || alibi->shape[0] == heads);
  if (!fits) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (StridedAlong(q, 2) || StridedAlong(out, 2) || StridedAlong(k, 3) || StridedAlong(v, 3) || OverlapsItself(out)) {
    return INFINI_STATUS_BAD_TENSOR_STRIDES;
  }
  plan->dtype = dtype;
  plan->index_dtype = tables.dtype;
  plan->rows = rows;
  plan->num_seqs = num_seqs;
  plan->heads = heads;
  plan->kv_heads = kv_heads;
  plan->head_size = head_size;
  plan->value_size = value_size;
  plan->num_blocks = num_blocks;
  plan->block_size = block_size;
  plan->max_blocks = tables.shape[1];
  plan->q_row = q.strides[0];
  plan->q_head = q.strides[1];
  plan->out_row = out.strides[0];
  plan->out_head = out.strides[1];
  plan->k_block = k.strides[0];
  plan->k_head = k.strides[1];
  plan->k_slot = k.strides[2];
  plan->v_block = v.strides[0];
  plan->v_head = v.strides[1];
  plan->v_slot = v.strides[2];
  plan->table_row = tables.strides[0];
  plan->table_column = tables.strides[1];
  plan->lens_step = lens.strides[0];
  plan->cum_step = cum != nullptr ? cum->strides[0] : 0;
  plan->has_alibi = alibi != nullptr;
  plan->alibi_step = alibi != nullptr ? alibi->strides[0] : 0;
  plan->scale = scale;
  return INFINI_STATUS_SUCCESS;
}

#ifdef INFINIOP_WITH_CUDA
// The plan as the CUDA kernel takes it; `prefill`: rows packed by cum_seq_lens_q.
inline cuda::PagedAttentionGeometry DeviceGeometry(const PagedAttentionPlan &p, bool prefill) {
  cuda::PagedAttentionGeometry g{};
  auto i64 = [](size_t n) { return static_cast<int64_t>(n); };
  g.rows = i64(p.rows), g.num_seqs = i64(p.num_seqs), g.heads = i64(p.heads), g.kv_heads = i64(p.kv_heads);
  g.head_size = i64(p.head_size), g.value_size = i64(p.value_size);
  g.num_blocks = i64(p.num_blocks), g.block_size = i64(p.block_size), g.max_blocks = i64(p.max_blocks);
  g.q_row = p.q_row, g.q_head = p.q_head, g.out_row = p.out_row, g.out_head = p.out_head;
  g.k_block = p.k_block, g.k_head = p.k_head, g.k_slot = p.k_slot;
  g.v_block = p.v_block, g.v_head = p.v_head, g.v_slot = p.v_slot;
  g.table_row = p.table_row, g.table_column = p.table_column, g.lens_step = p.lens_step, g.cum_step = p.cum_step;
  g.alibi_step = p.alibi_step;
  g.index = p.index_dtype == INFINI_DTYPE_I32   ? cuda::PagedIndex::kI32
            : p.index_dtype == INFINI_DTYPE_U32 ? cuda::PagedIndex::kU32
                                                : cuda::PagedIndex::kI64;
  g.prefill = prefill ? 1 : 0;
  g.has_alibi = p.has_alibi ? 1 : 0;
  g.scale = p.scale;
  return g;
}
#endif

// `count` values of an index tensor (I32, I64 or U32) `step` elements apart, as int64.
inline std::vector<int64_t> ReadIndices(infiniDtype_t dtype, const void *base, size_t count, ptrdiff_t step) {
  std::vector<int64_t> values(count);
  for (size_t i = 0; i < count; ++i) {
    const ptrdiff_t at = static_cast<ptrdiff_t>(i) * step;
    switch (dtype) {
      case INFINI_DTYPE_I32: values[i] = static_cast<const int32_t *>(base)[at]; break;
      case INFINI_DTYPE_U32: values[i] = static_cast<const uint32_t *>(base)[at]; break;
      default: values[i] = static_cast<const int64_t *>(base)[at]; break;
    }
  }
  return values;
}

// The whole block table, row-major [num_seqs][max_blocks] (entries past a sequence's blocks
// are read too, as plain numbers, and never used).
inline std::vector<int64_t> ReadBlockTables(const PagedAttentionPlan &plan, const void *tables) {
  std::vector<int64_t> values(plan.num_seqs * plan.max_blocks);
  for (size_t s = 0; s < plan.num_seqs; ++s) {
    const void *row = static_cast<const unsigned char *>(tables) +
                      static_cast<ptrdiff_t>(s) * plan.table_row * static_cast<ptrdiff_t>(DtypeSize(plan.index_dtype));
    const std::vector<int64_t> entries = ReadIndices(plan.index_dtype, row, plan.max_blocks, plan.table_column);
    std::copy(entries.begin(), entries.end(), values.begin() + static_cast<ptrdiff_t>(s * plan.max_blocks));
  }
  return values;
}

// Whether sequence s of `length` keys fits its row of the copied block tables (ops/paged_fit.h).
inline bool SequenceFits(const PagedAttentionPlan &plan, const std::vector<int64_t> &tables, size_t s,
                         int64_t length) {
  return FitsBlockTable(length, plan.max_blocks, plan.block_size, plan.num_blocks,
                        [&](uint64_t b) { return tables[s * plan.max_blocks + b]; });
}

// n contiguous elements as F32.
template <class T>
inline void LoadRowF32(const T *row, size_t n, float *out) {
  if constexpr (std::is_same_v<T, f16_t>) {
    if (simd::Enabled()) {
      simd::F16ToF32(reinterpret_cast<const uint16_t *>(row), out, n);
      return;
    }
  }
  for (size_t i = 0; i < n; ++i) out[i] = Num<T>::Load(row[i]);
}

// Σ a[i]·b[i] in F32, eight partial sums (so the compiler keeps them in one vector register).
inline float DotF32(const float *a, const float *b, size_t n) {
  float lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (size_t l = 0; l < 8; ++l) lanes[l] += a[i + l] * b[i + l];
  }
  float sum = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// y += w·x over n elements.
inline void AxpyF32(float w, const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] += w * x[i];
}

// row[j] = e^(row[j] − max) over n ≥ 1 scores, the max subtracted; answers their sum (F64).
inline double ExpShiftedInPlace(float *row, size_t n) {
  if (simd::Enabled()) return simd::ExpShiftedSum(row, simd::RowMax(row, n), row, n);
  const float largest = *std::max_element(row, row + n);
  double sum = 0.0;
  for (size_t j = 0; j < n; ++j) {
    row[j] = std::exp(row[j] - largest);
    sum += row[j];
  }
  return sum;
}

// Asks for the cache lines of `bytes` bytes from `row` ahead of their use.
inline void PrefetchRow(const void *row, size_t bytes) {
  for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch(static_cast<const char *>(row) + at);
}

inline float QuietNan() { return std::numeric_limits<float>::quiet_NaN(); }

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_PAGED_KV_H
