// PagedAttentionPrefill: causal attention of packed chunks of queries over paged KV pools
// (spec section OP-PAGEDATTENTIONPREFILL). Sequence s of L keys has n queries, rows
// cum_seq_lens_q[s] .. cum_seq_lens_q[s + 1] − 1 of q, its last n positions: query i at
// P = L − n + i attends keys 0..P.
//
// Data (common/paged_attention_data.h) as PagedAttention's, and: histories before most
// chunks (L > n), so a mask counted from the chunk's start shows; chunks starting and ending
// inside blocks and at block boundaries; unequal query counts packed in one batch (1, 17, 7,
// 16), so a sequence's queries located by s·n or by its length show; sequences of one query
// (decode through prefill); a chunk of 200 queries over 400 keys (the tiles of a kernel); a
// chunk ending at the last slot of a full block-table row.
#include <functional>
#include <string>
#include <vector>

#include "common/op_cases.h"
#include "common/paged_attention_data.h"
#include "common/paged_attention_perf.h"

namespace infinicts::op_cases {
namespace {

struct PagedAttentionPrefillOp {
  using Problem = PagedAttentionProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "paged_attention_prefill";
  static constexpr const char *kTensorRoles =
      "out[tokens,heads,value_size]=q q[tokens,heads,head_size] "
      "k_cache[blocks,kv_heads,block_size,head_size]=q v_cache[blocks,kv_heads,block_size,value_size]=q "
      "block_tables[~seqs,~max_blocks]:int seq_lens[~seqs]=block_tables "
      "cum_seq_lens_q[~seqs_and_1]=block_tables alibi_slopes";

  static std::vector<TensorSpec> Specs(const Problem &p) { return PagedAttentionSpecs(p); }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::PagedAttentionPrefill>(std::make_tuple(static_cast<float>(p.scale)));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) { FillPagedAttention(p, t, rng); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return PagedAttentionExpected(p, t);
  }

  static double Flops(const Problem &p) { return PagedAttentionFlops(p); }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16}; }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t index_dtype, std::string scenario, std::vector<int64_t> keys,
                      std::vector<int64_t> queries, size_t heads, size_t kv_heads, size_t head_size,
                      size_t block_size, double scale, AlibiUse alibi = AlibiUse::kNone) {
    Problem p;
    p.prefill = true;
    p.dtype = dtype;
    p.index_dtype = index_dtype;
    p.scenario = std::move(scenario);
    p.keys = std::move(keys);
    p.queries = std::move(queries);
    p.heads = heads;
    p.kv_heads = kv_heads;
    p.head_size = head_size;
    p.value_size = head_size;
    p.block_size = block_size;
    p.scale = scale;
    p.alibi = alibi;
    return p;
  }

  // A first chunk of 5 queries (no history) and a chunk of 3 after 17 cached keys.
  static Problem Default(infiniDtype_t dtype, AlibiUse alibi = AlibiUse::kNone) {
    return Make(dtype, INFINI_DTYPE_I64, "default", {5, 20}, {5, 3}, 4, 2, 64, 16, 0.2, alibi);
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Default(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    // Default: out and q [8, 4, 64], pools [6, 2, 16, 64], block_tables [2, 3], seq_lens [2],
    // cum_seq_lens_q [3].
    const Problem plain = Default(INFINI_DTYPE_F16), with_alibi = Default(INFINI_DTYPE_F16, AlibiUse::kSlopes);
    const size_t blocks = AssignBlocks(plain).num_blocks;
    BadDescriptorList<Problem> bad(plain);
    const infiniStatus_t kDtype = INFINI_STATUS_BAD_TENSOR_DTYPE, kShape = INFINI_STATUS_BAD_TENSOR_SHAPE;
    bad.Add("all_f32", kDtype, [](Specs &s) { for (auto &t : s) t.dtype = INFINI_DTYPE_F32; });
    bad.Add("v_cache_bf16_among_f16", kDtype, [](Specs &s) { s[3].dtype = INFINI_DTYPE_BF16; });
    bad.Add("out_bf16_among_f16", kDtype, [](Specs &s) { s[0].dtype = INFINI_DTYPE_BF16; });
    bad.Add("block_tables_f16", kDtype, [](Specs &s) { s[4].dtype = INFINI_DTYPE_F16; });
    bad.Add("seq_lens_u32_among_i64", kDtype, [](Specs &s) { s[5].dtype = INFINI_DTYPE_U32; });
    bad.Add("cum_seq_lens_q_i32_among_i64", kDtype, [](Specs &s) { s[6].dtype = INFINI_DTYPE_I32; });
    bad.Add("indices_u64", kDtype, [](Specs &s) { s[4].dtype = s[5].dtype = s[6].dtype = INFINI_DTYPE_U64; });
    bad.AddFor(with_alibi, "alibi_f16", kDtype, [](Specs &s) { s[7].dtype = INFINI_DTYPE_F16; });
    bad.Add("q_2d", kShape, [=](Specs &s) { Reshape(s[1], {8, 256}); });
    bad.Add("k_cache_3d", kShape, [=](Specs &s) { Reshape(s[2], {blocks, 2, 1024}); });
    bad.Add("k_cache_head_size_128", kShape, [=](Specs &s) { Reshape(s[2], {blocks, 2, 16, 128}); });
    bad.Add("v_cache_one_block_more", kShape, [=](Specs &s) { Reshape(s[3], {blocks + 1, 2, 16, 64}); });
    bad.Add("v_cache_block_size_8", kShape, [=](Specs &s) { Reshape(s[3], {blocks, 2, 8, 64}); });
    bad.Add("out_9_rows", kShape, [=](Specs &s) { Reshape(s[0], {9, 4, 64}); });
    bad.Add("out_value_size_128", kShape, [=](Specs &s) { Reshape(s[0], {8, 4, 128}); });
    bad.Add("block_tables_1d", kShape, [=](Specs &s) { Reshape(s[4], {6}); });
    bad.Add("block_tables_3_rows", kShape, [=](Specs &s) { Reshape(s[4], {3, 3}); });
    bad.Add("cum_seq_lens_q_2d", kShape, [=](Specs &s) { Reshape(s[6], {3, 1}); });
    bad.Add("heads_6_over_4_kv_heads", kShape, [=](Specs &s) {
      Reshape(s[0], {8, 6, 64});
      Reshape(s[1], {8, 6, 64});
      Reshape(s[2], {blocks, 4, 16, 64});
      Reshape(s[3], {blocks, 4, 16, 64});
    });
    bad.Add("value_size_32", kShape, [=](Specs &s) {
      Reshape(s[0], {8, 4, 32});
      Reshape(s[3], {blocks, 2, 16, 32});
    });
    bad.AddFor(with_alibi, "alibi_of_5", kShape, [=](Specs &s) { Reshape(s[7], {5}); });
    bad.AddFor(with_alibi, "alibi_2d", kShape, [=](Specs &s) { Reshape(s[7], {1, 4}); });
    bad.Add("out_rows_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
            [](Specs &s) { s[0].layout.strides = {0, 64, 1}; });
    bad.Add("dtype_before_shape", kDtype,
            [=](Specs &s) {
              s[3].dtype = INFINI_DTYPE_BF16;
              Reshape(s[0], {9, 4, 64});
            },
            kShape);
    bad.Add("shape_before_strides", kShape,
            [=](Specs &s) {
              Reshape(s[1], {9, 4, 64});
              s[0].layout.strides = {0, 64, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-PAGEDATTENTIONPREFILL-3", "OP-PAGEDATTENTIONPREFILL-4", "OP-PAGEDATTENTIONPREFILL-5",
             "OP-PAGEDATTENTIONPREFILL-6"},
            {"OP-PAGEDATTENTIONPREFILL-1"},
            {"OP-PAGEDATTENTIONPREFILL-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(PagedAttentionPrefillOp);
INFINICTS_OP_WORKSPACE_CASES(PagedAttentionPrefillOp);

// Perf: a prefill chunk of one sequence, its new queries the last of 512 cached keys plus its
// own (cum_seq_lens_q [0, n]), at the heads of Llama-2-7B, Llama-3-8B and Qwen2-7B, head_size
// 128: chunks of 16 and 128 queries in the quick profile, 16, 512 and 4096 in the full one
// (common/paged_attention_perf.h has the pools, the data and the check). Costed as 2 flops
// per term of q·k and p·V over the causal keys, and the bytes of q, out, the sequence's rows,
// its table entries, seq_lens and cum_seq_lens_q.
struct PagedAttentionPrefillWorkload {
  using Op = PagedAttentionPrefillOp;
  static std::vector<std::string> MathClauses() { return {"OP-PAGEDATTENTIONPREFILL-3"}; }

  static std::vector<PerfProblem> Problems() {
    const std::vector<size_t> chunks =
        cts::FullProfile() ? std::vector<size_t>{16, 512, 4096} : std::vector<size_t>{16, 128};
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PagedPerfDtypes()) {
        for (size_t chunk : chunks) {
          problems.push_back(PagedPerfProblem(model, dtype, "prefill_chunk", 1, kPrefillHistory + chunk, chunk));
        }
      }
    }
    return problems;
  }

  static PagedAttentionProblem At(const PerfProblem &p) { return PagedPerfAt(p, true); }
  static PerfCost Cost(const PagedAttentionProblem &p, const std::vector<TensorSpec> &) { return PagedPerfCost(p); }
  static PerfElement Element(const PagedAttentionProblem &p) { return PagedPerfElement(p); }
};
using PagedAttentionPrefillPerf = OpPerf<PagedAttentionPrefillWorkload>;
INFINICTS_OP_PERF_CASES(PagedAttentionPrefillPerf);

}  // namespace
}  // namespace infinicts::op_cases
