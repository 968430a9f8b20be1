// KVCaching: each sequence's new keys and values appended to its cache,
// k_cache[b, h, past_kv_lengths[b] + s, :] = k[b, h, s, :] (v likewise), the rest of both
// caches unchanged (spec section OP-KVCACHING). The caches are in-out: they start with prior
// values everywhere and are compared whole.
//
// Data: every cache element, k and v away from zero (so a write at the wrong position, or
// an element not written, shows), past lengths that differ per sequence and include 0 and
// max_seq_len - new_len (the last rows: a write one position late leaves the sequence's
// rows, into the next head's rows or a spare position of a view), lengths in I32 and I64,
// decode (one new token) and prefill chunks, head_dim 1 to 128, and k/v views: a
// token-major projection output, the k and v columns of a fused QKV tensor, a head_dim
// that is not the unit stride, the batch walked backwards.
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cache_layouts.h"
#include "common/cache_write_problems.h"
#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/problem_grammar.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

// How k and v [batch, kv_heads, new_len, head_dim] lie in memory.
enum class EntryLayout {
  kContiguous,
  kTokenMajor,   // memory [batch, new_len, kv_heads, head_dim]: a projection's output, unpermuted
  kQkvSlice,     // the k (or v) columns of a fused [batch, new_len, (2·kv_heads + kv_heads + kv_heads)·head_dim]
  kDimStrided,   // head_dim with stride new_len (the last two dims column-major)
  kFlipped,      // the batch walked backwards
};

const char *EntryLayoutName(EntryLayout kind) {
  switch (kind) {
    case EntryLayout::kContiguous: return "contig";
    case EntryLayout::kTokenMajor: return "token_major";
    case EntryLayout::kQkvSlice: return "qkv_slice";
    case EntryLayout::kDimStrided: return "dim_strided";
    case EntryLayout::kFlipped: return "flip";
  }
  return "layout";
}

}  // namespace

// The names EntryLayoutName gives. Outside the unnamed namespace: an explicit
// specialisation belongs to EnumNames' own namespace.
template <>
struct EnumNames<EntryLayout> {
  static std::vector<std::pair<EntryLayout, std::string>> All() {
    return {{EntryLayout::kContiguous, "contig"},
            {EntryLayout::kTokenMajor, "token_major"},
            {EntryLayout::kQkvSlice, "qkv_slice"},
            {EntryLayout::kDimStrided, "dim_strided"},
            {EntryLayout::kFlipped, "flip"}};
  }
};

namespace {

constexpr size_t kSparePositions = 3;

// `second` picks v's columns of the fused QKV tensor rather than k's.
Layout MakeEntryLayout(EntryLayout kind, const Shape &shape, bool second) {
  const ptrdiff_t heads = static_cast<ptrdiff_t>(shape[1]), tokens = static_cast<ptrdiff_t>(shape[2]),
                  dim = static_cast<ptrdiff_t>(shape[3]);
  switch (kind) {
    case EntryLayout::kContiguous: return ContiguousLayout(shape);
    case EntryLayout::kTokenMajor: return Layout{shape, {tokens * heads * dim, dim, heads * dim, 1}, 0};
    case EntryLayout::kQkvSlice: {
      const ptrdiff_t width = 4 * heads * dim;  // q (2 heads per kv head), k, v
      return Layout{shape, {tokens * width, dim, width, 1}, (second ? 3 : 2) * heads * dim};
    }
    case EntryLayout::kDimStrided: return MakeLayout(LayoutKind::kTransposed, shape);
    case EntryLayout::kFlipped: return MakeLayout(LayoutKind::kFlipped, shape);
  }
  throw std::invalid_argument("unknown entry layout");
}

struct KVCachingProblem : Param<KVCachingProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // caches, k and v
  infiniDtype_t length_dtype = INFINI_DTYPE_I64;
  size_t kv_heads = 1, max_seq_len = 1, new_len = 1, head_dim = 1;
  std::vector<int64_t> past;  // past_kv_lengths, one per sequence: the batch
  CacheLayout cache_layout = CacheLayout::kContiguous;
  EntryLayout kv_layout = EntryLayout::kContiguous;

  size_t Batch() const { return past.size(); }
  Shape CacheShape() const { return {Batch(), kv_heads, max_seq_len, head_dim}; }
  Shape EntryShape() const { return {Batch(), kv_heads, new_len, head_dim}; }

  std::string Name() const {
    std::string lengths;
    for (int64_t length : past) lengths += "_" + std::to_string(length);
    return std::string(DtypeName(dtype)) + "_len_" + DtypeName(length_dtype) + "__b" + std::to_string(Batch()) +
           "_h" + std::to_string(kv_heads) + "_m" + std::to_string(max_seq_len) + "_new" + std::to_string(new_len) +
           "_d" + std::to_string(head_dim) + "__past" + lengths + "__cache_" + CacheLayoutName(cache_layout) +
           "_kv_" + EntryLayoutName(kv_layout);
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("length", length_dtype);
    field("kv_heads", kv_heads);
    field("max_seq_len", max_seq_len);
    field("new_len", new_len);
    field("head_dim", head_dim);
    field("past", past);
    field("cache", cache_layout);
    field("kv", kv_layout);
  }
};

struct KVCachingOp {
  using Problem = KVCachingProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "kv_caching";
  static constexpr const char *kTensorRoles =
      "k_cache[batch,heads,positions,head_dim] v_cache[batch,heads,positions,head_dim]=k_cache "
      "k[batch,heads,new,head_dim]=k_cache v[batch,heads,new,head_dim]=k_cache "
      "past_kv_lengths[batch]:int";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"k_cache", Role::kInOut, p.dtype, MakeCacheLayout(p.cache_layout, p.CacheShape(), kSparePositions)},
            {"v_cache", Role::kInOut, p.dtype, MakeCacheLayout(p.cache_layout, p.CacheShape(), kSparePositions)},
            {"k", Role::kInput, p.dtype, MakeEntryLayout(p.kv_layout, p.EntryShape(), false)},
            {"v", Role::kInput, p.dtype, MakeEntryLayout(p.kv_layout, p.EntryShape(), true)},
            {"past_kv_lengths", Role::kInput, p.length_dtype, ContiguousLayout({p.Batch()})}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::KVCaching>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t i = 0; i < 4; ++i) FillAwayFromZero(t[i], rng, 0.25, 4.0);  // prior caches, k, v
    for (size_t b = 0; b < p.Batch(); ++b) t[4].SetInt({b}, p.past[b]);
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::KVCaching(t[0], t[2], t[4]), oracle::KVCaching(t[1], t[3], t[4])};
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(2 * NumElements(p.EntryShape()));
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t length_dtype, size_t kv_heads, size_t max_seq_len,
                      size_t new_len, size_t head_dim, std::vector<int64_t> past) {
    Problem p;
    p.dtype = dtype;
    p.length_dtype = length_dtype;
    p.kv_heads = kv_heads;
    p.max_seq_len = max_seq_len;
    p.new_len = new_len;
    p.head_dim = head_dim;
    p.past = std::move(past);
    return p;
  }

  // Three sequences with lengths 0, max - new_len and one between.
  static Problem Default(infiniDtype_t dtype, infiniDtype_t length_dtype = INFINI_DTYPE_I64) {
    return Make(dtype, length_dtype, 2, 10, 2, 8, {0, 8, 3});
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Default(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    // Default(F32): caches [3, 2, 10, 8], k and v [3, 2, 2, 8].
    BadDescriptorList<Problem> bad(Default(INFINI_DTYPE_F32));
    // The mutators outlive this function: they capture the helpers by value.
    auto reshape_kv = [](Specs &s, Shape shape) {
      Reshape(s[2], shape);
      Reshape(s[3], shape);
    };
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("k_f16_caches_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F16; });
    bad.Add("v_cache_bf16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_BF16; });
    bad.Add("lengths_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[4].dtype = INFINI_DTYPE_F32; });
    bad.Add("lengths_i16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[4].dtype = INFINI_DTYPE_I16; });
    bad.Add("k_cache_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { Reshape(s[0], {3, 2, 80}); });
    bad.Add("v_cache_longer", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { Reshape(s[1], {3, 2, 11, 8}); });
    bad.Add("kv_3_heads", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { reshape_kv(s, {3, 3, 2, 8}); });
    bad.Add("kv_head_dim_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { reshape_kv(s, {3, 2, 2, 4}); });
    bad.Add("kv_batch_2", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { reshape_kv(s, {2, 2, 2, 8}); });
    bad.Add("v_new_len_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { Reshape(s[3], {3, 2, 1, 8}); });
    bad.Add("new_len_past_max_seq_len", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { reshape_kv(s, {3, 2, 11, 8}); });
    bad.Add("lengths_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { Reshape(s[4], {3, 1}); });
    bad.Add("lengths_of_2", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { Reshape(s[4], {2}); });
    bad.AddRecommended("v_cache_rows_overlap", INFINI_STATUS_BAD_TENSOR_STRIDES,
            [](Specs &s) { s[1].layout.strides = {160, 80, 4, 1}; });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [=](Specs &s) {
              s[2].dtype = INFINI_DTYPE_F16;
              Reshape(s[4], {2});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [=](Specs &s) {
              Reshape(s[4], {2});
              s[0].layout.strides = {160, 80, 0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-KVCACHING-3"}, {"OP-KVCACHING-1"}, {"OP-KVCACHING-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(KVCachingOp);
INFINICTS_OP_WORKSPACE_CASES(KVCachingOp);

// Perf: a layer's new keys and values appended to its caches, k and v [batch, kv_heads,
// new_len, 128] into caches [batch, kv_heads, max_seq_len, 128], I64 past lengths, at the kv
// heads of Llama-2-7B (32), Llama-3-8B (8) and Qwen2-7B (4): decode (1 new token for each of
// 1, 16 and 64 sequences) and prefill chunks (one sequence, 16 and 512 new tokens, 4096 in
// the full profile). The caches hold at most 4096 positions and 1 Mi elements each (the
// oracle checks them whole). The accuracy cases' data: prior values, k and v away from zero;
// past lengths spread over 0 … max_seq_len - new_len, ends included (one sequence: the
// last rows, where a write one position late leaves them). Costed as memory traffic: k and v
// read, as many cache elements written, and the lengths; no flops.
constexpr size_t kPerfCacheElements = size_t{1} << 20;  // per cache, unless a prefill chunk needs more
constexpr size_t kPerfMaxContext = 4096;

PerfProblem CacheProblem(const LlmModel &model, infiniDtype_t dtype, const char *part, size_t batch, size_t new_len) {
  const size_t room = kPerfCacheElements / (batch * model.kv_heads * model.head_dim);
  PerfProblem problem;
  problem.dtype = dtype;
  problem.model = model.name;
  problem.part = part;
  problem.tokens = batch * new_len;
  problem.dims = {{"batch", batch},
                  {"kv_heads", model.kv_heads},
                  {"max_seq_len", std::max(new_len, std::min(kPerfMaxContext, room))},
                  {"new_len", new_len},
                  {"head_dim", model.head_dim}};
  return problem;
}

struct KVCachingWorkload {
  using Op = KVCachingOp;
  static std::vector<std::string> MathClauses() { return {"OP-KVCACHING-3"}; }
  static std::vector<PerfProblem> Problems() {
    return CacheWriteProblems([](const LlmModel &model, infiniDtype_t dtype, const char *part, size_t count) {
      const bool decode = std::string(part) == "decode";
      return CacheProblem(model, dtype, part, decode ? count : 1, decode ? 1 : count);
    });
  }
  static KVCachingOp::Problem At(const PerfProblem &p) {
    const size_t batch = p.Dim("batch"), new_len = p.Dim("new_len"), max_seq_len = p.Dim("max_seq_len");
    const int64_t longest = static_cast<int64_t>(max_seq_len - new_len);
    std::vector<int64_t> past(batch, longest);  // one sequence: the last rows
    if (batch > 1) {
      for (size_t b = 0; b < batch; ++b) past[b] = longest * static_cast<int64_t>(b) / static_cast<int64_t>(batch - 1);
    }
    return KVCachingOp::Make(p.dtype, INFINI_DTYPE_I64, p.Dim("kv_heads"), max_seq_len, new_len, p.Dim("head_dim"),
                             std::move(past));
  }
  static PerfCost Cost(const KVCachingOp::Problem &p, const std::vector<TensorSpec> &) {
    return CacheWriteCost(KVCachingOp::kSubject, 2 * NumElements(p.EntryShape()), p.dtype, p.Batch(), p.length_dtype);  // k and v
  }
};
using KVCachingPerf = OpPerf<KVCachingWorkload>;
INFINICTS_OP_PERF_CASES(KVCachingPerf);

}  // namespace
}  // namespace infinicts::op_cases
