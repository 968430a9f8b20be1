// The CUDA path of PagedAttention and PagedAttentionPrefill (ops/paged_attention*.cc call it
// for NVIDIA descriptors): one kernel, one block per (query row, head). Decode is prefill
// with one query per sequence, at its last position. The block's warps take the visible keys
// in turn, each keeping a running max, sum and F32 accumulator of the weighted values
// (online softmax); the warps' parts are merged and the row stored, rounded once.
//
// Which sequence a row belongs to, whether it is computed, left alone or set to NaN, where
// each key and value row lies in the pools, and the online softmax's steps are plain host
// and device functions here (tested on the CPU in reference_cuda.host_logic); the kernel is
// in paged_attention.cu. The index tensors (block tables, lengths, cumulative query counts)
// live in device memory and are read there, at compute time, as on the CPU.
#ifndef INFINICTS_REF_OP_CUDA_PAGED_ATTENTION_H
#define INFINICTS_REF_OP_CUDA_PAGED_ATTENTION_H

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "core/host_device.h"
#include "cuda/kernel_limits.h"
#include "ops/paged_fit.h"

namespace infinicts::ref::op::cuda {

// The index tensors' one dtype.
enum class PagedIndex : int32_t { kI32, kI64, kU32 };

// q and out [rows, heads, head_size / value_size], pools [num_blocks, kv_heads, block_size,
// head_size / value_size] (strides in elements, the last dim's 1); block_tables [num_seqs,
// max_blocks], seq_lens [num_seqs], cum_seq_lens_q [num_seqs + 1] (prefill only).
struct PagedAttentionGeometry {
  int64_t rows, num_seqs, heads, kv_heads, head_size, value_size;
  int64_t num_blocks, block_size, max_blocks;
  int64_t q_row, q_head, out_row, out_head;
  int64_t k_block, k_head, k_slot, v_block, v_head, v_slot;
  int64_t table_row, table_column, lens_step, cum_step, alibi_step;
  PagedIndex index;
  int32_t prefill;  // 1: rows packed by cum_seq_lens_q; 0: row s is sequence s's one query
  int32_t has_alibi;
  float scale;
};
static_assert(FitsKernelParameters<PagedAttentionGeometry>(), "PagedAttention's parameters must fit in 4 KB");

// Element `at` (in elements) of an index tensor, widened: I32 sign-extended, U32 not.
INFINICTS_HOST_DEVICE inline int64_t ReadPagedIndex(const void *base, PagedIndex index, int64_t at) {
  switch (index) {
    case PagedIndex::kI32: return static_cast<const int32_t *>(base)[at];
    case PagedIndex::kU32: return static_cast<int64_t>(static_cast<const uint32_t *>(base)[at]);
    default: return static_cast<const int64_t *>(base)[at];
  }
}

// The pool block holding key j of sequence s.
INFINICTS_HOST_DEVICE inline int64_t BlockOfKey(const PagedAttentionGeometry &g, const void *tables,
                                                                int64_t s, int64_t j) {
  return ReadPagedIndex(tables, g.index, s * g.table_row + (j / g.block_size) * g.table_column);
}

// Whether sequence s of `length` keys fits its table row: the CPU's rule (ops/paged_fit.h).
INFINICTS_HOST_DEVICE inline bool PagedSequenceFits(const PagedAttentionGeometry &g, const void *tables, int64_t s,
                                                    int64_t length) {
  return FitsBlockTable(length, static_cast<uint64_t>(g.max_blocks), static_cast<uint64_t>(g.block_size),
                        static_cast<uint64_t>(g.num_blocks), [&](uint64_t b) {
                          return BlockOfKey(g, tables, s, static_cast<int64_t>(b) * g.block_size);
                        });
}

// What one query row gets: untouched (a prefill row no sequence's range covers), NaN (its
// sequence does not fit), or attention over keys 0 .. position of sequence `seq`.
enum class RowFate : int32_t { kUntouched, kNan, kComputed };
struct QueryRow {
  RowFate fate;
  int64_t seq, position;
};

// Prefill: the sequence whose query range [cum[s], cum[s + 1]) inside [0, rows) holds row r;
// where ranges overlap, the last such sequence (the CPU computes sequences in order, so its
// writes stand). -1 for none.
INFINICTS_HOST_DEVICE inline int64_t OwnerOfRow(const PagedAttentionGeometry &g, const void *cum,
                                                                int64_t r) {
  for (int64_t s = g.num_seqs - 1; s >= 0; --s) {
    const int64_t first = ReadPagedIndex(cum, g.index, s * g.cum_step);
    const int64_t end = ReadPagedIndex(cum, g.index, (s + 1) * g.cum_step);
    if (first < 0 || end < first || end > g.rows) continue;
    if (first <= r && r < end) return s;
  }
  return -1;
}

// Query row r's fate. Decode: sequence r, at position L − 1. Prefill: query i = r − cum[s]
// of n = cum[s + 1] − cum[s] sits at P = L − n + i; more queries than keys is NaN.
INFINICTS_HOST_DEVICE inline QueryRow PlaceQueryRow(const PagedAttentionGeometry &g,
                                                                    const void *tables, const void *lens,
                                                                    const void *cum, int64_t r) {
  const int64_t s = g.prefill ? OwnerOfRow(g, cum, r) : r;
  if (s < 0) return {RowFate::kUntouched, -1, -1};
  const int64_t length = ReadPagedIndex(lens, g.index, s * g.lens_step);
  int64_t queries = 1, index = 0;
  if (g.prefill) {
    const int64_t first = ReadPagedIndex(cum, g.index, s * g.cum_step);
    queries = ReadPagedIndex(cum, g.index, (s + 1) * g.cum_step) - first;
    index = r - first;
  }
  if (!PagedSequenceFits(g, tables, s, length) || queries > length) return {RowFate::kNan, s, -1};
  return {RowFate::kComputed, s, length - queries + index};
}

// Offsets (in elements) of key j's and value j's rows of kv head `kv` in block `block`.
INFINICTS_HOST_DEVICE inline int64_t KeyRowOffset(const PagedAttentionGeometry &g, int64_t block,
                                                                  int64_t kv, int64_t j) {
  return block * g.k_block + kv * g.k_head + (j % g.block_size) * g.k_slot;
}
INFINICTS_HOST_DEVICE inline int64_t ValueRowOffset(const PagedAttentionGeometry &g, int64_t block,
                                                                    int64_t kv, int64_t j) {
  return block * g.v_block + kv * g.v_head + (j % g.block_size) * g.v_slot;
}

// The kv head query head h reads (grouped-query attention).
INFINICTS_HOST_DEVICE inline int64_t PagedKvHead(const PagedAttentionGeometry &g, int64_t h) {
  return h / (g.heads / g.kv_heads);
}

// A running softmax over the scores seen so far: their max and Σ e^(score − max).
struct RunningSoftmax {
  float max;
  double sum;
};
INFINICTS_HOST_DEVICE inline RunningSoftmax EmptySoftmax() { return {-INFINITY, 0.0}; }

// Takes one score: answers the factor the accumulator so far is scaled by and the weight of
// this key's value row. A score of −∞ weighs nothing (as e^(−∞ − max) on the CPU); a run
// that saw nothing else ends with sum 0, whose row is NaN (the CPU's e^(−∞ + ∞)).
INFINICTS_HOST_DEVICE inline void Absorb(RunningSoftmax *run, float score, float *rescale,
                                                         float *weight) {
  if (score == -INFINITY) {
    *rescale = 1.0f;
    *weight = 0.0f;
    return;
  }
  const float next = score > run->max ? score : run->max;  // a NaN score keeps the max and poisons the sum
  *rescale = next == run->max ? 1.0f : expf(run->max - next);
  *weight = expf(score - next);
  run->sum = run->sum * *rescale + *weight;
  run->max = next;
}

// The factor a part (one warp's keys) is scaled by when merged under the overall max; a
// part that saw no key (max −∞) counts 0 (all parts empty: NaN, as the row must be).
INFINICTS_HOST_DEVICE inline float MergeFactor(const RunningSoftmax &part, float overall_max) {
  return expf(part.max - overall_max);
}

// Launch constants: the block's warps, and the dynamic shared memory (the query row, then one
// F32 accumulator of value_size per warp).
constexpr int kPagedAttentionWarps = 4;
inline size_t PagedAttentionSharedBytes(const PagedAttentionGeometry &g) {
  return static_cast<size_t>(g.head_size + kPagedAttentionWarps * g.value_size) * sizeof(float);
}

// A block may use 48 KB of shared memory unless its kernel opts in to more.
constexpr size_t kDefaultSharedBytesPerBlock = 48 * 1024;

// Whether a launch with `dynamic_bytes` of dynamic shared memory must opt in: the kernel's
// static shared memory (cudaFuncAttributes::sharedSizeBytes) counts in the same 48 KB.
inline bool NeedsSharedMemoryOptIn(size_t static_bytes, size_t dynamic_bytes) {
  return static_bytes + dynamic_bytes > kDefaultSharedBytesPerBlock;
}

// dtype F16 or BF16; cum_seq_lens_q NULL for decode, alibi_slopes NULL without ALiBi.
infiniStatus_t PagedAttention(const InfiniopDescriptor &desc, const PagedAttentionGeometry &geometry,
                              infiniDtype_t dtype, void *out, const void *q, const void *k_cache, const void *v_cache,
                              const void *block_tables, const void *seq_lens, const void *cum_seq_lens_q,
                              const void *alibi_slopes, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_PAGED_ATTENTION_H
