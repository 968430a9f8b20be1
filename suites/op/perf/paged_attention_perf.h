// What the perf cases of PagedAttention and PagedAttentionPrefill share: problems at the
// serving models' heads (ServingModels()), 16-slot pools, I32 indices, scale
// 1/sqrt(head_size), no ALiBi.
//
// Pools: each sequence needs ⌈keys / 16⌉ blocks, drawn from a shuffled list of the pool's
// blocks; the pool holds at most kPerfPoolElements elements (each of k_cache, v_cache), and a
// batch that needs more blocks shares them between sequences (as prefix caching and parallel
// sampling do), so its logical size stays the model's. The live rows are copies of rows
// drawn from a bank of 1024 random rows (keys ±[0.25, 1.25], values ±[0.25, 2]): filling
// hundreds of MiB element by element would take longer than the timing; q ±[0.25, 1.25].
//
// Check: every element when that costs the oracle no more than kPerfSamples elements would,
// else kPerfSamples elements drawn from the case's seed, each the oracle of its one query and
// head over its keys alone.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "common/paged_attention_data.h"
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {

inline constexpr size_t kPerfBlockSize = 16;
inline constexpr size_t kPerfPoolElements = size_t{1} << 27;
inline constexpr size_t kPerfBankRows = 1024;
inline constexpr size_t kPrefillHistory = 512;  // cached keys before a prefill chunk
inline constexpr infiniDtype_t kPerfIndexDtype = INFINI_DTYPE_I32;

// Quick profile F16 (the operators admit no F32), full F16 and BF16.
inline std::vector<infiniDtype_t> PagedPerfDtypes() {
  if (cts::FullProfile()) return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16};
  return {INFINI_DTYPE_F16};
}

// `batch` sequences of `keys` keys each, the last `queries` of them new (decode: 1).
inline PerfProblem PagedPerfProblem(const LlmModel &model, infiniDtype_t dtype, std::string part, size_t batch,
                                    size_t keys, size_t queries) {
  const size_t per_seq = (keys + kPerfBlockSize - 1) / kPerfBlockSize;
  const size_t room = std::max<size_t>(kPerfPoolElements / (model.kv_heads * kPerfBlockSize * model.head_dim), 1);
  PerfProblem problem;
  problem.dtype = dtype;
  problem.model = model.name;
  problem.part = std::move(part);
  problem.tokens = batch * queries;
  problem.dims = {{"batch", batch},
                  {"keys", keys},
                  {"queries", queries},
                  {"heads", model.heads},
                  {"kv_heads", model.kv_heads},
                  {"head_size", model.head_dim},
                  {"block_size", kPerfBlockSize},
                  {"blocks_per_seq", per_seq},
                  {"num_blocks", std::max(std::min(batch * per_seq, room), per_seq)}};
  return problem;
}

inline float PagedPerfScale(const PerfProblem &p) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(p.Dim("head_size"))));
}

// out, q, k_cache, v_cache, block_tables, seq_lens, [cum_seq_lens_q,] alibi_slopes (absent).
inline std::vector<TensorSpec> PagedPerfSpecs(const PerfProblem &p, bool prefill) {
  const size_t batch = p.Dim("batch"), rows = batch * p.Dim("queries"), heads = p.Dim("heads");
  const size_t head_size = p.Dim("head_size");
  const Layout pool = ContiguousLayout({p.Dim("num_blocks"), p.Dim("kv_heads"), p.Dim("block_size"), head_size});
  std::vector<TensorSpec> specs = {
      {"out", Role::kOutput, p.dtype, ContiguousLayout({rows, heads, head_size})},
      {"q", Role::kInput, p.dtype, ContiguousLayout({rows, heads, head_size})},
      {"k_cache", Role::kInput, p.dtype, pool},
      {"v_cache", Role::kInput, p.dtype, pool},
      {"block_tables", Role::kInput, kPerfIndexDtype, ContiguousLayout({batch, p.Dim("blocks_per_seq")})},
      {"seq_lens", Role::kInput, kPerfIndexDtype, ContiguousLayout({batch})}};
  if (prefill) specs.push_back({"cum_seq_lens_q", Role::kInput, kPerfIndexDtype, ContiguousLayout({batch + 1})});
  TensorSpec alibi{"alibi_slopes", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({heads})};
  alibi.present = false;
  alibi.optional = true;
  specs.push_back(alibi);
  return specs;
}

// Pool block of key j of sequence s, from the table the fill wrote.
inline size_t PerfBlockOf(const std::vector<HostTensor> &t, size_t s, size_t j, size_t block_size) {
  return static_cast<size_t>(t[4].GetInt({s, j / block_size}));
}

// Copies `width` elements of the row at `from` (a multi-index up to the last dim) of a
// contiguous-rowed tensor to the row at `to` of another of the same dtype.
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

inline void PagedPerfFill(const PerfProblem &p, bool prefill, std::vector<HostTensor> &t, Rng &rng) {
  const size_t batch = p.Dim("batch"), keys = p.Dim("keys"), queries = p.Dim("queries");
  const size_t kv_heads = p.Dim("kv_heads"), head_size = p.Dim("head_size"), block_size = p.Dim("block_size");
  const size_t per_seq = p.Dim("blocks_per_seq"), num_blocks = p.Dim("num_blocks");
  FillAwayFromZero(t[1], rng, 0.25, 1.25);
  std::vector<int64_t> order(num_blocks);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t s = 0; s < batch; ++s) {
    for (size_t b = 0; b < per_seq; ++b) t[4].SetInt({s, b}, order[(s * per_seq + b) % num_blocks]);
    t[5].SetInt({s}, static_cast<int64_t>(keys));
  }
  if (prefill) {
    for (size_t s = 0; s <= batch; ++s) t[6].SetInt({s}, static_cast<int64_t>(s * queries));
  }
  HostTensor key_bank(p.dtype, Shape{kPerfBankRows, head_size}), value_bank(p.dtype, Shape{kPerfBankRows, head_size});
  FillAwayFromZero(key_bank, rng, 0.25, 1.25);
  FillAwayFromZero(value_bank, rng, 0.25, 2.0);
  std::uniform_int_distribution<size_t> pick(0, kPerfBankRows - 1);
  for (size_t s = 0; s < batch; ++s) {
    for (size_t j = 0; j < keys; ++j) {
      const size_t block = PerfBlockOf(t, s, j, block_size), slot = j % block_size;
      for (size_t kv = 0; kv < kv_heads; ++kv) {
        CopyRow(key_bank, {pick(rng)}, t[2], {block, kv, slot}, head_size);
        CopyRow(value_bank, {pick(rng)}, t[3], {block, kv, slot}, head_size);
      }
    }
  }
}

inline double PagedPerfTerms(const PerfProblem &p) {
  const size_t batch = p.Dim("batch");
  return PagedAttentionTerms(std::vector<int64_t>(batch, static_cast<int64_t>(p.Dim("keys"))),
                             std::vector<int64_t>(batch, static_cast<int64_t>(p.Dim("queries"))), p.Dim("heads"),
                             p.Dim("head_size"), p.Dim("head_size"));
}

// flops: kPagedAttention per term; bytes: q and out, each sequence's key and value rows of
// its kv heads once, the table entries it uses, seq_lens and cum_seq_lens_q.
inline PerfCost PagedPerfCost(const PerfProblem &p, bool prefill) {
  const double element = static_cast<double>(DtypeSize(p.dtype)), index = static_cast<double>(DtypeSize(kPerfIndexDtype));
  const double batch = static_cast<double>(p.Dim("batch")), rows = batch * static_cast<double>(p.Dim("queries"));
  const double head_size = static_cast<double>(p.Dim("head_size"));
  const double queries_and_out = 2 * rows * static_cast<double>(p.Dim("heads")) * head_size;
  const double kv_rows = batch * static_cast<double>(p.Dim("keys")) * static_cast<double>(p.Dim("kv_heads")) * 2 * head_size;
  const double indices = batch * static_cast<double>(p.Dim("blocks_per_seq")) + batch + (prefill ? batch + 1 : 0);
  PerfCost cost;
  cost.flops = FlopsPerElement("paged_attention") * PagedPerfTerms(p);
  cost.bytes = (queries_and_out + kv_rows) * element + indices * index;
  return cost;
}

// The oracle's out[row, h, e]: row's query of head h over its sequence's keys up to its own
// position P, as a one-sequence decode problem of P + 1 keys (the same softmax and bias).
inline double PagedPerfSampledValue(const PerfProblem &p, bool prefill, const std::vector<HostTensor> &t, size_t row,
                                    size_t h, size_t e) {
  const size_t queries = p.Dim("queries"), keys = p.Dim("keys"), block_size = p.Dim("block_size");
  const size_t head_size = p.Dim("head_size"), group = p.Dim("heads") / p.Dim("kv_heads");
  const size_t s = prefill ? row / queries : row;
  const size_t position = prefill ? keys - queries + row % queries : keys - 1;
  const size_t kv = h / group, attended = position + 1;
  const size_t blocks = (attended + block_size - 1) / block_size;
  HostTensor q(p.dtype, Shape{1, 1, head_size});
  CopyRow(t[1], {row, h}, q, {0, 0}, head_size);
  HostTensor k(p.dtype, Shape{blocks, 1, block_size, head_size}), v(p.dtype, Shape{blocks, 1, block_size, head_size});
  for (size_t j = 0; j < attended; ++j) {
    const size_t block = PerfBlockOf(t, s, j, block_size);
    CopyRow(t[2], {block, kv, j % block_size}, k, {j / block_size, 0, j % block_size}, head_size);
    CopyRow(t[3], {block, kv, j % block_size}, v, {j / block_size, 0, j % block_size}, head_size);
  }
  HostTensor table(INFINI_DTYPE_I64, Shape{1, blocks}), lengths(INFINI_DTYPE_I64, Shape{1});
  for (size_t b = 0; b < blocks; ++b) table.SetInt({0, b}, static_cast<int64_t>(b));
  lengths.SetInt({0}, static_cast<int64_t>(attended));
  const double scale = static_cast<double>(PagedPerfScale(p));
  return oracle::PagedAttention(q, k, v, table, lengths, nullptr, scale).GetAt(e);
}

inline PerfCheck PagedPerfCheck(const PerfProblem &p, bool prefill) {
  const double scale = static_cast<double>(PagedPerfScale(p));
  const double sampled_cost = static_cast<double>(kPerfSamples * p.Dim("keys") * 2 * p.Dim("head_size"));
  PerfCheck check;
  if (PagedPerfTerms(p) <= sampled_cost) {
    check.full = [prefill, scale](const std::vector<HostTensor> &t) {
      if (prefill) return std::vector<HostTensor>{oracle::PagedAttentionPrefill(t[1], t[2], t[3], t[4], t[5], t[6], nullptr, scale)};
      return std::vector<HostTensor>{oracle::PagedAttention(t[1], t[2], t[3], t[4], t[5], nullptr, scale)};
    };
  } else {
    const size_t heads = p.Dim("heads"), width = p.Dim("head_size");
    check.element = [p, prefill, heads, width](const std::vector<HostTensor> &t, size_t, size_t flat) {
      return PagedPerfSampledValue(p, prefill, t, flat / (heads * width), (flat / width) % heads, flat % width);
    };
  }
  return check;
}

}  // namespace infinicts::op_cases
