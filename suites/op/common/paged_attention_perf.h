// What the perf workloads of PagedAttention and PagedAttentionPrefill share (common/op_perf.h):
// problems at the serving models' heads (ServingModels()), 16-slot pools, I32 indices, scale
// 1/sqrt(head_size), no ALiBi.
//
// Pools: shared pools (common/paged_attention_data.h) of at most kPerfPoolElements elements
// (each of k_cache, v_cache): each sequence needs ⌈keys / 16⌉ blocks, and a batch that needs
// more than the pool holds shares them, so its logical size stays the model's.
//
// Check: every element when that costs the oracle no more than kPerfSamples elements would,
// else kPerfSamples elements drawn from the case's seed, each the oracle of its one query and
// head over its keys alone.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/op_perf.h"
#include "common/paged_attention_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {

inline constexpr size_t kPerfBlockSize = 16;
inline constexpr size_t kPerfPoolElements = size_t{1} << 27;
inline constexpr size_t kPrefillHistory = 512;  // cached keys before a prefill chunk

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

// The operator's problem at a perf problem: contiguous q, out and pools, a shared pool.
inline PagedAttentionProblem PagedPerfAt(const PerfProblem &p, bool prefill) {
  PagedAttentionProblem problem;
  problem.prefill = prefill;
  problem.dtype = p.dtype;
  problem.index_dtype = INFINI_DTYPE_I32;
  problem.scenario = "perf";
  problem.keys.assign(p.Dim("batch"), static_cast<int64_t>(p.Dim("keys")));
  problem.queries.assign(p.Dim("batch"), static_cast<int64_t>(p.Dim("queries")));
  problem.heads = p.Dim("heads");
  problem.kv_heads = p.Dim("kv_heads");
  problem.head_size = problem.value_size = p.Dim("head_size");
  problem.block_size = p.Dim("block_size");
  problem.scale = 1.0 / std::sqrt(static_cast<double>(problem.head_size));
  problem.shared_pool_blocks = p.Dim("num_blocks");
  return problem;
}

// flops: kPagedAttention per term; bytes: q and out, each sequence's key and value rows of
// its kv heads once, the table entries it uses, seq_lens and (prefill) cum_seq_lens_q.
inline PerfCost PagedPerfCost(const PagedAttentionProblem &p) {
  const double element = static_cast<double>(DtypeSize(p.dtype)), index = static_cast<double>(DtypeSize(p.index_dtype));
  const double seqs = static_cast<double>(p.NumSeqs()), rows = static_cast<double>(p.TotalQueries());
  const double row_width = static_cast<double>(p.head_size + p.value_size);
  double keys = 0, entries = 0;
  for (int64_t length : p.keys) {
    keys += static_cast<double>(length);
    entries += static_cast<double>((static_cast<size_t>(length) + p.block_size - 1) / p.block_size);
  }
  const double queries_and_out = rows * static_cast<double>(p.heads) * row_width;
  const double kv_rows = keys * static_cast<double>(p.kv_heads) * row_width;
  const double indices = entries + seqs + (p.prefill ? seqs + 1 : 0);
  return {PagedAttentionFlops(p), (queries_and_out + kv_rows) * element + indices * index};
}

// The oracle's out[row, h, e]: row's query of head h over its sequence's keys up to its own
// position P, as a one-sequence decode problem of P + 1 keys (the same softmax).
inline double PagedPerfSampledValue(const PagedAttentionProblem &p, const std::vector<HostTensor> &t, size_t row,
                                    size_t h, size_t e) {
  size_t s = row, first = row;  // row's sequence and that sequence's first row
  if (p.prefill) {
    for (s = 0, first = 0; row >= first + static_cast<size_t>(p.queries[s]); ++s) {
      first += static_cast<size_t>(p.queries[s]);
    }
  }
  const size_t keys = static_cast<size_t>(p.keys[s]), queries = static_cast<size_t>(p.queries[s]);
  const size_t position = keys - queries + (row - first), attended = position + 1;
  const size_t kv = h / (p.heads / p.kv_heads), block_size = p.block_size;
  const size_t blocks = (attended + block_size - 1) / block_size;
  HostTensor q(p.dtype, Shape{1, 1, p.head_size});
  CopyRow(t[1], {row, h}, q, {0, 0}, p.head_size);
  HostTensor k(p.dtype, Shape{blocks, 1, block_size, p.head_size});
  HostTensor v(p.dtype, Shape{blocks, 1, block_size, p.value_size});
  for (size_t j = 0; j < attended; ++j) {
    const size_t block = static_cast<size_t>(t[4].GetInt({s, j / block_size}));
    CopyRow(t[2], {block, kv, j % block_size}, k, {j / block_size, 0, j % block_size}, p.head_size);
    CopyRow(t[3], {block, kv, j % block_size}, v, {j / block_size, 0, j % block_size}, p.value_size);
  }
  HostTensor table(INFINI_DTYPE_I64, Shape{1, blocks}), lengths(INFINI_DTYPE_I64, Shape{1});
  for (size_t b = 0; b < blocks; ++b) table.SetInt({0, b}, static_cast<int64_t>(b));
  lengths.SetInt({0}, static_cast<int64_t>(attended));
  return oracle::PagedAttention(q, k, v, table, lengths, nullptr, p.PassedScale()).GetAt(e);
}

// Empty (the whole output checked) while the oracle's terms cost no more than kPerfSamples
// elements of the longest sequence would; else the sampled element.
inline PerfElement PagedPerfElement(const PagedAttentionProblem &p) {
  const size_t longest = static_cast<size_t>(*std::max_element(p.keys.begin(), p.keys.end()));
  const double sampled_cost = static_cast<double>(kPerfSamples * longest * (p.head_size + p.value_size));
  if (PagedAttentionTerms(p.keys, p.queries, p.heads, p.head_size, p.value_size) <= sampled_cost) return {};
  if (p.HasAlibi()) throw std::logic_error("paged attention: the sampled perf check takes no ALiBi");
  return [p](const std::vector<HostTensor> &t, size_t, size_t flat) {
    return PagedPerfSampledValue(p, t, flat / (p.heads * p.value_size), flat / p.value_size % p.heads,
                                 flat % p.value_size);
  };
}

}  // namespace infinicts::op_cases
