// PagedAttention: decode attention over paged KV pools, one query per sequence (spec section
// OP-PAGEDATTENTION). For sequence s of L keys and head h (kv head h / group): softmax over
// j < L of scale·q·K_j + slope_h·(j − (L − 1)), out = Σ_j p_j·V_j, K_j and V_j read through
// the block table.
//
// Data (common/paged_attention_data.h): blocks scattered backwards through the pool between
// other sequences' and free ones, free blocks and the slots past each length left NaN, the
// unused table entries pointing at a free block; lengths 1, block_size, block_size + 1,
// 2·block_size and ones ending inside a block in one batch; groups of 1, 2, 4 and 8 query
// heads per kv head; scales that are not 1/sqrt(head_size); per-head ALiBi slopes present,
// absent, and absent with a pointer to NaN passed all the same; logits beyond 88 (e^x
// overflows F32 without the max subtracted); a sequence filling its whole block-table row
// (a bound off by one, or a table read one entry too far, shows); block sizes 8, 16 and 32;
// I32, I64 and U32 indices; MLA's 576/512 head sizes; q and out as fused-QKV columns, padded,
// offset and backwards views, pools slot-major, with spare slots and padded.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/op_cases.h"
#include "common/paged_attention_data.h"
#include "common/paged_attention_perf.h"

namespace infinicts::op_cases {
namespace {

struct PagedAttentionOp {
  using Problem = PagedAttentionProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "paged_attention";
  static constexpr const char *kTensorRoles =
      "out[seqs,heads,value_size]=q q[seqs,heads,head_size] "
      "k_cache[blocks,kv_heads,block_size,head_size]=q v_cache[blocks,kv_heads,block_size,value_size]=q "
      "block_tables[seqs,~max_blocks]:int seq_lens[seqs]=block_tables alibi_slopes";

  static std::vector<TensorSpec> Specs(const Problem &p) { return PagedAttentionSpecs(p); }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::PagedAttention>(std::make_tuple(static_cast<float>(p.scale)));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) { FillPagedAttention(p, t, rng); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return PagedAttentionExpected(p, t);
  }

  static double Flops(const Problem &p) { return PagedAttentionFlops(p); }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16}; }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t index_dtype, std::string scenario, std::vector<int64_t> keys,
                      size_t heads, size_t kv_heads, size_t head_size, size_t block_size, double scale,
                      AlibiUse alibi = AlibiUse::kNone) {
    Problem p;
    p.dtype = dtype;
    p.index_dtype = index_dtype;
    p.scenario = std::move(scenario);
    p.queries.assign(keys.size(), 1);
    p.keys = std::move(keys);
    p.heads = heads;
    p.kv_heads = kv_heads;
    p.head_size = head_size;
    p.value_size = head_size;
    p.block_size = block_size;
    p.scale = scale;
    p.alibi = alibi;
    return p;
  }

  // Two sequences of 5 and 20 keys (the second over two blocks), 4 heads over 2 kv heads.
  static Problem Default(infiniDtype_t dtype, AlibiUse alibi = AlibiUse::kNone) {
    return Make(dtype, INFINI_DTYPE_I64, "default", {5, 20}, 4, 2, 64, 16, 0.2, alibi);
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Default(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    // Default: out and q [2, 4, 64], pools [6, 2, 16, 64], block_tables [2, 3], seq_lens [2].
    const Problem plain = Default(INFINI_DTYPE_F16), with_alibi = Default(INFINI_DTYPE_F16, AlibiUse::kSlopes);
    const size_t blocks = AssignBlocks(plain).num_blocks;
    BadDescriptorList<Problem> bad(plain);
    const infiniStatus_t kDtype = INFINI_STATUS_BAD_TENSOR_DTYPE, kShape = INFINI_STATUS_BAD_TENSOR_SHAPE;
    bad.Add("all_f32", kDtype, [](Specs &s) { for (auto &t : s) t.dtype = INFINI_DTYPE_F32; });
    bad.Add("k_cache_bf16_among_f16", kDtype, [](Specs &s) { s[2].dtype = INFINI_DTYPE_BF16; });
    bad.Add("out_bf16_among_f16", kDtype, [](Specs &s) { s[0].dtype = INFINI_DTYPE_BF16; });
    bad.Add("q_f32_among_f16", kDtype, [](Specs &s) { s[1].dtype = INFINI_DTYPE_F32; });
    bad.Add("seq_lens_i32_tables_i64", kDtype, [](Specs &s) { s[5].dtype = INFINI_DTYPE_I32; });
    bad.Add("indices_i16", kDtype, [](Specs &s) { s[4].dtype = s[5].dtype = INFINI_DTYPE_I16; });
    bad.AddFor(with_alibi, "alibi_f16", kDtype, [](Specs &s) { s[6].dtype = INFINI_DTYPE_F16; });
    bad.Add("q_2d", kShape, [=](Specs &s) { Reshape(s[1], {2, 256}); });
    bad.Add("k_cache_3d", kShape, [=](Specs &s) { Reshape(s[2], {blocks, 2, 1024}); });
    bad.Add("k_cache_head_size_128", kShape, [=](Specs &s) { Reshape(s[2], {blocks, 2, 16, 128}); });
    bad.Add("v_cache_one_block_more", kShape, [=](Specs &s) { Reshape(s[3], {blocks + 1, 2, 16, 64}); });
    bad.Add("v_cache_block_size_8", kShape, [=](Specs &s) { Reshape(s[3], {blocks, 2, 8, 64}); });
    bad.Add("v_cache_3_kv_heads", kShape, [=](Specs &s) { Reshape(s[3], {blocks, 3, 16, 64}); });
    bad.Add("out_3_heads", kShape, [=](Specs &s) { Reshape(s[0], {2, 3, 64}); });
    bad.Add("out_value_size_128", kShape, [=](Specs &s) { Reshape(s[0], {2, 4, 128}); });
    bad.Add("out_3_seqs", kShape, [=](Specs &s) { Reshape(s[0], {3, 4, 64}); });
    bad.Add("seq_lens_of_3", kShape, [=](Specs &s) { Reshape(s[5], {3}); });
    bad.Add("block_tables_1d", kShape, [=](Specs &s) { Reshape(s[4], {6}); });
    bad.Add("block_tables_3_rows", kShape, [=](Specs &s) { Reshape(s[4], {3, 3}); });
    bad.Add("heads_3_over_2_kv_heads", kShape, [=](Specs &s) {
      Reshape(s[0], {2, 3, 64});
      Reshape(s[1], {2, 3, 64});
    });
    bad.Add("value_size_32", kShape, [=](Specs &s) {  // value_size ≠ head_size outside MLA's pair
      Reshape(s[0], {2, 4, 32});
      Reshape(s[3], {blocks, 2, 16, 32});
    });
    bad.AddFor(with_alibi, "alibi_of_5", kShape, [=](Specs &s) { Reshape(s[6], {5}); });
    bad.AddFor(with_alibi, "alibi_2d", kShape, [=](Specs &s) { Reshape(s[6], {1, 4}); });
    bad.Add("dtype_before_shape", kDtype,
            [=](Specs &s) {
              s[2].dtype = INFINI_DTYPE_BF16;
              Reshape(s[5], {3});
            },
            kShape);
    bad.Add("shape_before_strides", kShape,
            [=](Specs &s) {
              Reshape(s[5], {3});
              s[0].layout.strides = {0, 64, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-PAGEDATTENTION-3", "OP-PAGEDATTENTION-4", "OP-PAGEDATTENTION-5", "OP-PAGEDATTENTION-6"},
            {"OP-PAGEDATTENTION-1"},
            {"OP-PAGEDATTENTION-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(PagedAttentionOp);
INFINICTS_OP_WORKSPACE_CASES(PagedAttentionOp);

// Perf: decode steps, one query per sequence over 512 or 4096 cached keys, at the heads of
// Llama-2-7B (32 over 32 kv heads), Llama-3-8B (32 over 8) and Qwen2-7B (28 over 4),
// head_size 128: 1 and 16 sequences of 512 keys and 1 of 4096 in the quick profile, 1, 16 and
// 64 sequences of each in the full one (common/paged_attention_perf.h has the pools, the data
// and the check). Costed as 2 flops per term of q·k and p·V, and the bytes of q, out, the rows
// each sequence attends, its table entries and the lengths.
struct PagedAttentionWorkload {
  using Op = PagedAttentionOp;
  static std::vector<std::string> MathClauses() { return {"OP-PAGEDATTENTION-3"}; }

  static std::vector<PerfProblem> Problems() {
    // (sequences, keys): the quick profile's three, or every pair of the full one.
    std::vector<std::pair<size_t, size_t>> steps = {{1, 512}, {16, 512}, {1, 4096}};
    if (cts::FullProfile()) {
      steps.clear();
      for (size_t keys : {512, 4096}) {
        for (size_t batch : {1, 16, 64}) steps.push_back({batch, keys});
      }
    }
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PagedPerfDtypes()) {
        for (const auto &[batch, keys] : steps) {
          problems.push_back(PagedPerfProblem(model, dtype, "decode_ctx_" + std::to_string(keys), batch, keys, 1));
        }
      }
    }
    return problems;
  }

  static PagedAttentionProblem At(const PerfProblem &p) { return PagedPerfAt(p, false); }
  static PerfCost Cost(const PagedAttentionProblem &p, const std::vector<TensorSpec> &) { return PagedPerfCost(p); }
  static PerfElement Element(const PagedAttentionProblem &p) { return PagedPerfElement(p); }
};
using PagedAttentionPerf = OpPerf<PagedAttentionWorkload>;
INFINICTS_OP_PERF_CASES(PagedAttentionPerf);

}  // namespace
}  // namespace infinicts::op_cases
