// The problems and data of the paged-attention operators (PagedAttention, one query per
// sequence; PagedAttentionPrefill, packed chunks of queries): pools [num_blocks, kv_heads,
// block_size, head_size] filled through block tables whose blocks lie scattered and out of
// order in the pool, and everything the live rows do not cover left NaN.
//
// Block tables (AssignBlocks): the pool's blocks are handed out from the last to the first,
// every third one (b mod 3 = 1) kept free while spare blocks remain, and the sequences take
// turns, one logical block each. So each sequence's blocks run backwards through the pool
// with other sequences' and free blocks between them, and no sequence's block b is pool block
// b. Every row has unused entries past its blocks, pointing at a free block, except in
// full-table problems, where the longest sequence fills its row (max_blocks · block_size
// keys) and the entry after its last is the next row's first.
//
// Data: only the live rows (position j < seq_lens[s] of each sequence's blocks, every kv
// head) are written: keys ±[0.25, 1.25], values ±[0.25, 2]. The rest of both pools (free
// blocks, the slots past a sequence's length, gaps of padded layouts) keeps the all-ones
// bytes storage starts with: NaN (OP-PAGEDATTENTION-4). q ±[q_min, q_max]; ALiBi slopes
// 2^(−8(h+1)/heads), ALiBi's own, one per query head.
//
// Shared pools (shared_pool_blocks > 0; the perf cases', common/paged_attention_perf.h): a
// pool of that many blocks, too large to fill element by element in the time a case has. Each
// sequence's table row holds exactly its blocks, drawn in turn from a shuffled list of the
// pool's blocks; a batch that needs more blocks than the pool has shares them between
// sequences (as prefix caching and parallel sampling do; a later sequence's rows overwrite an
// earlier one's). The live rows are copies of rows drawn from a bank of kSharedPoolBankRows
// random rows (keys ±[0.25, 1.25], values ±[0.25, 2]); q as above.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cache_layouts.h"
#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_case.h"
#include "common/problem_grammar.h"
#include "oracle/oracles.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {

// How q [rows, heads, head_size] and out [rows, heads, value_size] lie in memory.
enum class QueryLayout {
  kContiguous,
  kQkvSlice,  // q: the q columns of a fused [rows, (heads + 2·kv_heads)·head_size] QKV tensor
  kPadded,    // 3 unused elements after each head's row (common/layouts.h kPadded)
  kView,      // padded and offset (kView)
  kFlipped,   // rows walked backwards
  kOffset,    // contiguous, 5 elements into its storage
};

inline const char *QueryLayoutName(QueryLayout kind) {
  switch (kind) {
    case QueryLayout::kContiguous: return "contig";
    case QueryLayout::kQkvSlice: return "qkv_slice";
    case QueryLayout::kPadded: return "pad";
    case QueryLayout::kView: return "view";
    case QueryLayout::kFlipped: return "flip";
    case QueryLayout::kOffset: return "offset";
  }
  return "layout";
}

// The names QueryLayoutName gives, for problem lines.
template <>
struct EnumNames<QueryLayout> {
  static std::vector<std::pair<QueryLayout, std::string>> All() {
    return {{QueryLayout::kContiguous, "contig"}, {QueryLayout::kQkvSlice, "qkv_slice"},
            {QueryLayout::kPadded, "pad"},        {QueryLayout::kView, "view"},
            {QueryLayout::kFlipped, "flip"},      {QueryLayout::kOffset, "offset"}};
  }
};

inline Layout MakeQueryLayout(QueryLayout kind, const Shape &shape, size_t kv_heads) {
  switch (kind) {
    case QueryLayout::kContiguous: return ContiguousLayout(shape);
    case QueryLayout::kQkvSlice: {
      const ptrdiff_t heads = static_cast<ptrdiff_t>(shape[1]), dim = static_cast<ptrdiff_t>(shape[2]);
      return Layout{shape, {(heads + 2 * static_cast<ptrdiff_t>(kv_heads)) * dim, dim, 1}, 0};
    }
    case QueryLayout::kPadded: return MakeLayout(LayoutKind::kPadded, shape);
    case QueryLayout::kView: return MakeLayout(LayoutKind::kView, shape);
    case QueryLayout::kFlipped: return MakeLayout(LayoutKind::kFlipped, shape);
    case QueryLayout::kOffset: return MakeLayout(LayoutKind::kOffset, shape);
  }
  throw std::invalid_argument("unknown query layout");
}

enum class AlibiUse {
  kNone,              // alibi_slopes absent: NULL descriptor, NULL pointer
  kSlopes,            // present
  kNoneJunkPointer,   // absent from the descriptor, yet compute gets a pointer to NaN
};

// The names PagedAttentionProblem::Name() gives.
template <>
struct EnumNames<AlibiUse> {
  static std::vector<std::pair<AlibiUse, std::string>> All() {
    return {{AlibiUse::kNone, "no_alibi"}, {AlibiUse::kSlopes, "alibi"}, {AlibiUse::kNoneJunkPointer, "no_alibi_junk_pointer"}};
  }
};

// Unused pool slots after each block's slots in CacheLayout::kSpareRows.
inline constexpr size_t kPagedSpareSlots = 2;

struct PagedAttentionProblem : Param<PagedAttentionProblem> {
  bool prefill = false;
  infiniDtype_t dtype = INFINI_DTYPE_F16;
  infiniDtype_t index_dtype = INFINI_DTYPE_I64;
  std::string scenario = "default";  // what the problem exercises, in the case id; never empty (it reads back)
  std::vector<int64_t> keys;         // seq_lens
  std::vector<int64_t> queries;      // per sequence: the last queries[s] positions (decode: 1 each)
  size_t heads = 4, kv_heads = 2, head_size = 64, value_size = 64, block_size = 16;
  size_t spare_blocks = 3;  // free blocks in the pool (NaN), at least 1
  bool full_table = false;  // block_tables without a spare column: the longest sequence fills its row
  double scale = 0.2;
  double q_min = 0.25, q_max = 1.25;
  AlibiUse alibi = AlibiUse::kNone;
  QueryLayout q_layout = QueryLayout::kContiguous, out_layout = QueryLayout::kContiguous;
  CacheLayout pool_layout = CacheLayout::kContiguous;
  // 0: the block tables of AssignBlocks; else a shared pool of this many blocks (top of this
  // file; spare_blocks and full_table then play no part). No field: only the perf cases,
  // which build their problems in code, take one.
  size_t shared_pool_blocks = 0;

  // scale travels as a float: the oracle uses the value the backend receives.
  double PassedScale() const { return static_cast<double>(static_cast<float>(scale)); }
  size_t NumSeqs() const { return keys.size(); }
  size_t TotalQueries() const {
    size_t total = 0;
    for (int64_t n : queries) total += static_cast<size_t>(n);
    return total;
  }
  bool HasAlibi() const { return alibi == AlibiUse::kSlopes; }
  size_t AlibiIndex() const { return prefill ? 7 : 6; }  // its place among the specs

  std::string Name() const {
    auto list = [](const char *what, const std::vector<int64_t> &values) {
      std::string text = what;
      for (int64_t v : values) text += "_" + std::to_string(v);
      return text;
    };
    std::string name = std::string(DtypeName(dtype)) + "_" + DtypeName(index_dtype) + "__" + scenario + "__h" +
                       std::to_string(heads) + "_kv" + std::to_string(kv_heads) + "_d" + std::to_string(head_size) +
                       (value_size != head_size ? "_vd" + std::to_string(value_size) : std::string()) + "_bs" +
                       std::to_string(block_size) + "__" + list("keys", keys);
    if (prefill) name += "__" + list("queries", queries);
    if (full_table) name += "__full_table";
    const char *bias = alibi == AlibiUse::kSlopes ? "alibi" : alibi == AlibiUse::kNone ? "no_alibi"
                                                                                        : "no_alibi_junk_pointer";
    return name + "__scale_" + NumberName(scale) + "__" + bias + "__q_" + QueryLayoutName(q_layout) + "_out_" +
           QueryLayoutName(out_layout) + "_pool_" + CacheLayoutName(pool_layout);
  }
  // prefill is no field: it tells the two operators apart, and the seed carries it.
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("index", index_dtype);
    field("scenario", scenario);
    field("keys", keys);
    field("queries", queries);
    field("heads", heads);
    field("kv_heads", kv_heads);
    field("head_size", head_size);
    field("value_size", value_size);
    field("block_size", block_size);
    field("spare_blocks", spare_blocks);
    field("full_table", full_table);
    field("scale", scale);
    field("q_min", q_min);
    field("q_max", q_max);
    field("alibi", alibi);
    field("q", q_layout);
    field("out", out_layout);
    field("pool", pool_layout);
  }
};

struct BlockAssignment {
  size_t num_blocks = 0, max_blocks = 0;
  int64_t free_block = 0;
  std::vector<int64_t> tables;  // [num_seqs][max_blocks], row-major
};

// The block tables described at the top of this file.
inline BlockAssignment AssignBlocks(const std::vector<int64_t> &keys, size_t block_size, size_t spare_blocks,
                                    bool full_table) {
  if (spare_blocks < 1 || block_size < 1) throw std::logic_error("AssignBlocks: no free block or block_size 0");
  std::vector<size_t> need(keys.size());
  size_t used = 0, most = 0;
  for (size_t s = 0; s < keys.size(); ++s) {
    need[s] = (static_cast<size_t>(keys[s]) + block_size - 1) / block_size;
    used += need[s];
    most = std::max(most, need[s]);
  }
  BlockAssignment a;
  a.num_blocks = used + spare_blocks;
  a.max_blocks = full_table ? most : most + 1;  // else one unused entry per row at least
  std::vector<int64_t> order, kept_free;
  for (size_t b = a.num_blocks; b-- > 0;) {
    if (kept_free.size() < spare_blocks && b % 3 == 1) {
      kept_free.push_back(static_cast<int64_t>(b));
    } else {
      order.push_back(static_cast<int64_t>(b));
    }
  }
  // Fewer blocks b mod 3 = 1 than spare ones: the free ones left are those past the used.
  a.free_block = kept_free.empty() ? order.at(used) : kept_free.front();
  a.tables.assign(keys.size() * a.max_blocks, a.free_block);
  size_t next = 0;
  for (size_t round = 0; round < most; ++round) {
    for (size_t s = 0; s < keys.size(); ++s) {
      if (round < need[s]) a.tables[s * a.max_blocks + round] = order.at(next++);
    }
  }
  return a;
}

inline BlockAssignment AssignBlocks(const PagedAttentionProblem &p) {
  return AssignBlocks(p.keys, p.block_size, p.spare_blocks, p.full_table);
}

// ALiBi's slopes for `heads` heads: 2^(−8(h+1)/heads), one per query head.
inline double AlibiSlope(size_t h, size_t heads) {
  return std::exp2(-8.0 * static_cast<double>(h + 1) / static_cast<double>(heads));
}

// Rows of kSharedPoolBankRows keys and values whose copies fill a shared pool.
inline constexpr size_t kSharedPoolBankRows = 1024;

// The blocks a shared pool gives each sequence: a table row of the most any sequence needs,
// from `order` (the pool's blocks, shuffled) in turn, wrapping round when they run out.
inline BlockAssignment SharedPoolBlocks(const PagedAttentionProblem &p, const std::vector<int64_t> &order) {
  BlockAssignment a;
  a.num_blocks = p.shared_pool_blocks;
  for (int64_t keys : p.keys) {
    a.max_blocks = std::max(a.max_blocks, (static_cast<size_t>(keys) + p.block_size - 1) / p.block_size);
  }
  if (order.empty()) return a;  // the shapes alone
  a.tables.resize(p.NumSeqs() * a.max_blocks);
  for (size_t i = 0; i < a.tables.size(); ++i) a.tables[i] = order[i % order.size()];
  return a;
}

// The specs in the create call's order: out, q, k_cache, v_cache, block_tables, seq_lens,
// [cum_seq_lens_q,] alibi_slopes.
inline std::vector<TensorSpec> PagedAttentionSpecs(const PagedAttentionProblem &p) {
  const BlockAssignment blocks = p.shared_pool_blocks ? SharedPoolBlocks(p, {}) : AssignBlocks(p);
  const size_t rows = p.prefill ? p.TotalQueries() : p.NumSeqs();
  auto pool = [&](size_t dim) {
    return MakeCacheLayout(p.pool_layout, {blocks.num_blocks, p.kv_heads, p.block_size, dim}, kPagedSpareSlots);
  };
  std::vector<TensorSpec> specs = {
      {"out", Role::kOutput, p.dtype, MakeQueryLayout(p.out_layout, {rows, p.heads, p.value_size}, p.kv_heads)},
      {"q", Role::kInput, p.dtype, MakeQueryLayout(p.q_layout, {rows, p.heads, p.head_size}, p.kv_heads)},
      {"k_cache", Role::kInput, p.dtype, pool(p.head_size)},
      {"v_cache", Role::kInput, p.dtype, pool(p.value_size)},
      {"block_tables", Role::kInput, p.index_dtype, ContiguousLayout({p.NumSeqs(), blocks.max_blocks})},
      {"seq_lens", Role::kInput, p.index_dtype, ContiguousLayout({p.NumSeqs()})}};
  if (p.prefill) {
    specs.push_back({"cum_seq_lens_q", Role::kInput, p.index_dtype, ContiguousLayout({p.NumSeqs() + 1})});
  }
  TensorSpec alibi{"alibi_slopes", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({p.heads})};
  alibi.optional = true;
  alibi.present = p.HasAlibi();
  alibi.junk_pointer = p.alibi == AlibiUse::kNoneJunkPointer;
  specs.push_back(alibi);
  return specs;
}

// The index tensors from the problem; the block tables from AssignBlocks.
inline void FillPagedIndices(const PagedAttentionProblem &p, const BlockAssignment &blocks, std::vector<HostTensor> &t) {
  for (size_t s = 0; s < p.NumSeqs(); ++s) {
    for (size_t b = 0; b < blocks.max_blocks; ++b) t[4].SetInt({s, b}, blocks.tables[s * blocks.max_blocks + b]);
    t[5].SetInt({s}, p.keys[s]);
  }
  if (p.prefill) {
    int64_t cum = 0;
    t[6].SetInt({0}, 0);
    for (size_t s = 0; s < p.NumSeqs(); ++s) t[6].SetInt({s + 1}, cum += p.queries[s]);
  }
}

// Copies `width` elements of the row at `from` (a multi-index up to the last dim) of a
// tensor whose rows are contiguous to the row at `to` of another of the same dtype.
inline void CopyRow(const HostTensor &src, const std::vector<size_t> &from, HostTensor &dst,
                    const std::vector<size_t> &to, size_t width) {
  auto offset = [](const HostTensor &t, const std::vector<size_t> &index) {
    ptrdiff_t at = t.offset();
    for (size_t d = 0; d < index.size(); ++d) at += static_cast<ptrdiff_t>(index[d]) * t.strides()[d];
    return at;
  };
  const size_t size = src.element_size();
  std::memcpy(dst.storage() + offset(dst, to) * static_cast<ptrdiff_t>(size),
              src.storage() + offset(src, from) * static_cast<ptrdiff_t>(size), width * size);
}

// A shared pool's data (top of this file).
inline void FillSharedPool(const PagedAttentionProblem &p, std::vector<HostTensor> &t, Rng &rng) {
  FillAwayFromZero(t[1], rng, p.q_min, p.q_max);
  std::vector<int64_t> order(p.shared_pool_blocks);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  const BlockAssignment blocks = SharedPoolBlocks(p, order);
  FillPagedIndices(p, blocks, t);
  HostTensor key_bank(p.dtype, Shape{kSharedPoolBankRows, p.head_size});
  HostTensor value_bank(p.dtype, Shape{kSharedPoolBankRows, p.value_size});
  FillAwayFromZero(key_bank, rng, 0.25, 1.25);
  FillAwayFromZero(value_bank, rng, 0.25, 2.0);
  std::uniform_int_distribution<size_t> pick(0, kSharedPoolBankRows - 1);
  for (size_t s = 0; s < p.NumSeqs(); ++s) {
    for (size_t j = 0; j < static_cast<size_t>(p.keys[s]); ++j) {
      const size_t block = static_cast<size_t>(blocks.tables[s * blocks.max_blocks + j / p.block_size]);
      const size_t slot = j % p.block_size;
      for (size_t kv = 0; kv < p.kv_heads; ++kv) {
        CopyRow(key_bank, {pick(rng)}, t[2], {block, kv, slot}, p.head_size);
        CopyRow(value_bank, {pick(rng)}, t[3], {block, kv, slot}, p.value_size);
      }
    }
  }
  if (p.HasAlibi()) {
    for (size_t h = 0; h < p.heads; ++h) t[p.AlibiIndex()].Set({h}, AlibiSlope(h, p.heads));
  }
}

inline void FillPagedAttention(const PagedAttentionProblem &p, std::vector<HostTensor> &t, Rng &rng) {
  if (p.shared_pool_blocks) {
    FillSharedPool(p, t, rng);
    return;
  }
  const BlockAssignment blocks = AssignBlocks(p);
  std::uniform_real_distribution<double> key_magnitude(0.25, 1.25), value_magnitude(0.25, 2.0);
  std::bernoulli_distribution negative(0.5);
  FillAwayFromZero(t[1], rng, p.q_min, p.q_max);
  for (size_t s = 0; s < p.NumSeqs(); ++s) {
    for (size_t j = 0; j < static_cast<size_t>(p.keys[s]); ++j) {
      const size_t block = static_cast<size_t>(blocks.tables[s * blocks.max_blocks + j / p.block_size]);
      const size_t slot = j % p.block_size;
      for (size_t kv = 0; kv < p.kv_heads; ++kv) {
        for (size_t d = 0; d < p.head_size; ++d) {
          t[2].Set({block, kv, slot, d}, (negative(rng) ? -1.0 : 1.0) * key_magnitude(rng));
        }
        for (size_t e = 0; e < p.value_size; ++e) {
          t[3].Set({block, kv, slot, e}, (negative(rng) ? -1.0 : 1.0) * value_magnitude(rng));
        }
      }
    }
  }
  FillPagedIndices(p, blocks, t);
  if (p.HasAlibi()) {
    for (size_t h = 0; h < p.heads; ++h) t[p.AlibiIndex()].Set({h}, AlibiSlope(h, p.heads));
  }
}

inline std::vector<HostTensor> PagedAttentionExpected(const PagedAttentionProblem &p, const std::vector<HostTensor> &t) {
  const HostTensor *alibi = p.HasAlibi() ? &t[p.AlibiIndex()] : nullptr;
  if (p.prefill) {
    return {oracle::PagedAttentionPrefill(t[1], t[2], t[3], t[4], t[5], t[6], alibi, p.PassedScale())};
  }
  return {oracle::PagedAttention(t[1], t[2], t[3], t[4], t[5], alibi, p.PassedScale())};
}

// Σ over queries and heads of the keys attended × (head_size + value_size): the terms of
// q·k and p·V (flop table: kPagedAttention per term).
inline double PagedAttentionTerms(const std::vector<int64_t> &keys, const std::vector<int64_t> &queries, size_t heads,
                                  size_t head_size, size_t value_size) {
  double attended = 0;
  for (size_t s = 0; s < keys.size(); ++s) {
    const double n = static_cast<double>(queries[s]), length = static_cast<double>(keys[s]);
    attended += n * (length - n) + n * (n + 1) / 2;  // query i sees L − n + i + 1 keys
  }
  return attended * static_cast<double>(heads * (head_size + value_size));
}

inline double PagedAttentionFlops(const PagedAttentionProblem &p) {
  return FlopsPerElement("paged_attention") *
         PagedAttentionTerms(p.keys, p.queries, p.heads, p.head_size, p.value_size);
}

}  // namespace infinicts::op_cases
