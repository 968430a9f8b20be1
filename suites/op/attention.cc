// Attention of one sequence over its KV cache (spec section OP-ATTENTION): k and v written into
// the caches' rows pos .. pos + seq_len - 1, then, for q head h (kv head g = h / (n_q / n_kv))
// and new token i, out[i, h, :] = softmax_j(q[h, i, :] · k_cache[g, j, :] / sqrt(head_dim)) ·
// v_cache[g, j, :] over the keys j = 0 .. pos + i. The caches are in-out and compared whole.
//
// Data: q, k, v and the caches' prior rows away from zero with magnitudes in [0.25, 2], so the
// scaled scores spread over a few units: no scale, or 1/head_dim, changes every row with
// head_dim >= 3. Past lengths 0 and > 0 (query i sees pos + i + 1 keys: a mask without the
// cache's offset changes every row when pos > 0), decode (seq_len 1), prompts and chunks of up
// to 130 tokens (the kernels' query blocks), head_dim 3 to 128, MHA, MQA and GQA groups whose
// ⌊h / group⌋ and h mod n_kv differ. Cache rows at pos + seq_len and beyond hold NaN and huge
// values alternately: reading one (even with weight 0) shows in out, writing one shows in the
// cache. q, k and v also come token-major and as the columns of a fused QKV tensor, the caches
// position-major and with padded rows (unit stride along head_dim everywhere; out contiguous:
// OP-ATTENTION-3).
#include <cmath>
#include <stdexcept>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/problem_grammar.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

// How q [n_q, seq, d], k and v [n_kv, seq, d] lie in memory.
enum class QkvLayout {
  kContiguous,
  kTokenMajor,  // memory [seq, heads, d]: a projection's output, viewed head-first
  kFused,       // the q, k or v columns of one [seq, (n_q + 2·n_kv)·d] QKV projection output
};

// How the caches [n_kv, capacity, d] lie in memory.
enum class AttentionCacheLayout {
  kContiguous,
  kPositionMajor,  // memory [capacity, n_kv, d] (vLLM's flash layout), viewed head-first
  kPadded,         // 3 unused elements after every row of d
};

const char *QkvLayoutName(QkvLayout kind) {
  switch (kind) {
    case QkvLayout::kContiguous: return "contig";
    case QkvLayout::kTokenMajor: return "token_major";
    case QkvLayout::kFused: return "fused_qkv";
  }
  return "layout";
}

const char *CacheLayoutName(AttentionCacheLayout kind) {
  switch (kind) {
    case AttentionCacheLayout::kContiguous: return "contig";
    case AttentionCacheLayout::kPositionMajor: return "position_major";
    case AttentionCacheLayout::kPadded: return "pad";
  }
  return "layout";
}

}  // namespace

// The names QkvLayoutName and CacheLayoutName give. Outside the unnamed namespace: an
// explicit specialisation belongs to EnumNames' own namespace.
template <>
struct EnumNames<QkvLayout> {
  static std::vector<std::pair<QkvLayout, std::string>> All() {
    return {{QkvLayout::kContiguous, "contig"}, {QkvLayout::kTokenMajor, "token_major"}, {QkvLayout::kFused, "fused_qkv"}};
  }
};

template <>
struct EnumNames<AttentionCacheLayout> {
  static std::vector<std::pair<AttentionCacheLayout, std::string>> All() {
    return {{AttentionCacheLayout::kContiguous, "contig"},
            {AttentionCacheLayout::kPositionMajor, "position_major"},
            {AttentionCacheLayout::kPadded, "pad"}};
  }
};

namespace {

struct AttentionProblem : Param<AttentionProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  size_t n_q = 1, n_kv = 1, seq = 1, pos = 0, head_dim = 1;
  size_t spare = 2;  // cache rows past pos + seq (junk that must not be read)
  QkvLayout qkv_layout = QkvLayout::kContiguous;
  AttentionCacheLayout cache_layout = AttentionCacheLayout::kContiguous;

  size_t Capacity() const { return pos + seq + spare; }
  Shape QShape() const { return {n_q, seq, head_dim}; }
  Shape EntryShape() const { return {n_kv, seq, head_dim}; }
  Shape CacheShape() const { return {n_kv, Capacity(), head_dim}; }
  Shape OutShape() const { return {seq, n_q, head_dim}; }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__q" + std::to_string(n_q) + "_kv" + std::to_string(n_kv) + "_seq" +
           std::to_string(seq) + "_pos" + std::to_string(pos) + "_d" + std::to_string(head_dim) + "_cap" +
           std::to_string(Capacity()) + "__qkv_" + QkvLayoutName(qkv_layout) + "_cache_" +
           CacheLayoutName(cache_layout);
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("n_q", n_q);
    field("n_kv", n_kv);
    field("seq", seq);
    field("pos", pos);
    field("head_dim", head_dim);
    field("spare", spare);
    field("qkv", qkv_layout);
    field("cache", cache_layout);
  }
};

// `first_head`: where the tensor's heads start among the fused tensor's n_q + 2·n_kv heads.
Layout MakeQkvLayout(const AttentionProblem &p, const Shape &shape, size_t first_head) {
  const ptrdiff_t heads = static_cast<ptrdiff_t>(shape[0]), dim = static_cast<ptrdiff_t>(shape[2]);
  switch (p.qkv_layout) {
    case QkvLayout::kContiguous: return ContiguousLayout(shape);
    case QkvLayout::kTokenMajor: return Layout{shape, {dim, heads * dim, 1}, 0};
    case QkvLayout::kFused: {
      const ptrdiff_t width = static_cast<ptrdiff_t>(p.n_q + 2 * p.n_kv) * dim;
      return Layout{shape, {dim, width, 1}, static_cast<ptrdiff_t>(first_head) * dim};
    }
  }
  return ContiguousLayout(shape);
}

Layout MakeAttentionCacheLayout(const AttentionProblem &p) {
  const Shape shape = p.CacheShape();
  const ptrdiff_t heads = static_cast<ptrdiff_t>(shape[0]), dim = static_cast<ptrdiff_t>(shape[2]);
  switch (p.cache_layout) {
    case AttentionCacheLayout::kContiguous: return ContiguousLayout(shape);
    case AttentionCacheLayout::kPositionMajor: return Layout{shape, {dim, heads * dim, 1}, 0};
    case AttentionCacheLayout::kPadded: return PaddedLayout(shape, 3);
  }
  return ContiguousLayout(shape);
}

// Cache rows from pos + seq on: NaN and a huge finite value, alternately (at most half of the
// cache, so that most expected cache values stay numbers).
void FillJunkRows(const AttentionProblem &p, HostTensor &cache) {
  const double huge = p.dtype == INFINI_DTYPE_F16 ? 6.0e4 : 1.0e30;
  for (size_t g = 0; g < p.n_kv; ++g) {
    for (size_t j = p.pos + p.seq; j < p.Capacity(); ++j) {
      const double junk = (j - p.pos - p.seq) % 2 == 0 ? NAN : huge;
      for (size_t d = 0; d < p.head_dim; ++d) cache.Set({g, j, d}, junk);
    }
  }
}

struct AttentionOp {
  using Problem = AttentionProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "attention";
  static constexpr const char *kTensorRoles =
      "out[seq,heads,head_dim]=q q[heads,seq,head_dim] k[kv_heads,seq,head_dim]=q "
      "v[kv_heads,seq,head_dim]=q k_cache[kv_heads,~positions,head_dim]=q "
      "v_cache[kv_heads,~positions,head_dim]=q";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    // OP-ATTENTION: the kv heads are groups of the q heads (a bad grouping is a descriptor's
    // fault, made by changing the shapes: kv_heads_3_of_4).
    if (p.n_kv == 0 || p.n_q % p.n_kv != 0) {
      throw std::invalid_argument("attention: n_kv=" + std::to_string(p.n_kv) + " does not divide n_q=" +
                                  std::to_string(p.n_q));
    }
    const Layout cache = MakeAttentionCacheLayout(p);
    return {{"out", Role::kOutput, p.dtype, ContiguousLayout(p.OutShape())},
            {"q", Role::kInput, p.dtype, MakeQkvLayout(p, p.QShape(), 0)},
            {"k", Role::kInput, p.dtype, MakeQkvLayout(p, p.EntryShape(), p.n_q)},
            {"v", Role::kInput, p.dtype, MakeQkvLayout(p, p.EntryShape(), p.n_q + p.n_kv)},
            {"k_cache", Role::kInOut, p.dtype, cache},
            {"v_cache", Role::kInOut, p.dtype, cache}};
  }

  static OpCalls Calls(const Problem &p) { return OperatorCalls<api::Attention>(std::make_tuple(p.pos)); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t i = 1; i < 6; ++i) FillAwayFromZero(t[i], rng, 0.25, 2.0);  // q, k, v, the caches' prior rows
    FillJunkRows(p, t[4]);
    FillJunkRows(p, t[5]);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::AttentionResult result = oracle::Attention(t[1], t[2], t[3], t[4], t[5], p.pos);
    return {std::move(result.out), std::move(result.k_cache), std::move(result.v_cache)};
  }

  // The terms of q·k and of p·V: every (q head, token, visible key) pair's 2·head_dim.
  static double Flops(const Problem &p) {
    const double pairs = static_cast<double>(p.n_q) * (static_cast<double>(p.seq) * static_cast<double>(p.pos) +
                                                       static_cast<double>(p.seq * (p.seq + 1) / 2));
    return FlopsPerElement(kSubject) * pairs * 2.0 * static_cast<double>(p.head_dim);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }

  static Problem Make(infiniDtype_t dtype, size_t n_q, size_t n_kv, size_t seq, size_t pos, size_t head_dim,
                      size_t spare) {
    Problem p;
    p.dtype = dtype;
    p.n_q = n_q;
    p.n_kv = n_kv;
    p.seq = seq;
    p.pos = pos;
    p.head_dim = head_dim;
    p.spare = spare;
    return p;
  }

  // A chunk of 3 tokens after 5 past ones, GQA 4/2, 2 junk rows.
  static Problem Default(infiniDtype_t dtype) { return Make(dtype, 4, 2, 3, 5, 8, 2); }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Default(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    // Default(F32): out [3, 4, 8], q [4, 3, 8], k and v [2, 3, 8], caches [2, 10, 8], pos 5.
    BadDescriptorList<Problem> bad(Default(INFINI_DTYPE_F32));
    Problem past_too_long = Default(INFINI_DTYPE_F32);
    past_too_long.pos = 8;  // 8 + 3 > the 10 rows the caches below keep
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("all_f64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_F64;
    });
    bad.Add("q_f16_rest_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_F16; });
    bad.Add("v_cache_bf16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[5].dtype = INFINI_DTYPE_BF16; });
    bad.Add("out_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_F16; });
    bad.Add("q_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 24}); });
    bad.Add("out_heads_first", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 3, 8}); });
    bad.Add("v_head_dim_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {2, 3, 4}); });
    bad.Add("kv_heads_3_of_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[2], {3, 3, 8});
      Reshape(s[3], {3, 3, 8});
      Reshape(s[4], {3, 10, 8});
      Reshape(s[5], {3, 10, 8});
    });
    bad.Add("k_cache_heads_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {1, 10, 8}); });
    bad.Add("v_cache_head_dim_16", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[5], {2, 10, 16}); });
    bad.Add("k_cache_shorter_than_pos_plus_seq", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {2, 7, 8}); });
    bad.AddFor(past_too_long, "pos_past_the_caches", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[4], {2, 10, 8});
      Reshape(s[5], {2, 10, 8});
    });
    bad.Add("out_rows_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES, [](Specs &s) { s[0].layout.strides = {0, 8, 1}; });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[1].dtype = INFINI_DTYPE_F16;
              Reshape(s[0], {4, 3, 8});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[2], {2, 2, 8});
              s[4].layout.strides = {80, 0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-ATTENTION-3", "OP-ATTENTION-4", "OP-ATTENTION-5", "OP-ATTENTION-6"},
            {"OP-ATTENTION-1"},
            {"OP-ATTENTION-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(AttentionOp);
INFINICTS_OP_WORKSPACE_CASES(AttentionOp);

// Perf: one layer's self-attention of one sequence over its KV cache at the heads of
// Llama-2-7B (32 over 32 kv heads), Llama-3-8B (32 over 8) and Qwen2-7B (28 over 4), head_dim
// 128: decode_ctx_512, one new token after 511 cached (the full profile adds decode_ctx_4096,
// after 4095), and prefill, a prompt of 16 tokens from position 0 (full: also 512). The caches
// hold exactly pos + seq_len rows (no junk rows); q, k, v and the caches' prior rows lie away
// from zero, as in the accuracy cases. The whole output and both caches are checked. Costed
// as the terms of q·k and p·V and every tensor once: q, k, v, out and the caches' rows.
struct AttentionWorkload {
  using Op = AttentionOp;
  static std::vector<std::string> MathClauses() { return {"OP-ATTENTION-4", "OP-ATTENTION-5"}; }

  static std::vector<PerfProblem> Problems() {
    std::vector<size_t> contexts = {512}, prompts = {16};
    if (cts::FullProfile()) {
      contexts.push_back(4096);
      prompts.push_back(512);
    }
    auto problem_of = [](const LlmModel &model, infiniDtype_t dtype, const std::string &part, size_t seq, size_t pos) {
      PerfProblem problem;
      problem.dtype = dtype;
      problem.model = model.name;
      problem.part = part;
      problem.tokens = seq;
      problem.dims = {{"heads", model.heads},
                      {"kv_heads", model.kv_heads},
                      {"seq_len", seq},
                      {"pos", pos},
                      {"head_dim", model.head_dim}};
      return problem;
    };
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
        for (size_t context : contexts) {
          problems.push_back(problem_of(model, dtype, "decode_ctx_" + std::to_string(context), 1, context - 1));
        }
        for (size_t prompt : prompts) problems.push_back(problem_of(model, dtype, "prefill", prompt, 0));
      }
    }
    return problems;
  }

  static AttentionProblem At(const PerfProblem &p) {
    return AttentionOp::Make(p.dtype, p.Dim("heads"), p.Dim("kv_heads"), p.Dim("seq_len"), p.Dim("pos"),
                             p.Dim("head_dim"), 0);
  }
};
using AttentionPerf = OpPerf<AttentionWorkload>;
INFINICTS_OP_PERF_CASES(AttentionPerf);

}  // namespace
}  // namespace infinicts::op_cases
