// DequantizeGPTQ: out [K, N] = (q − (z + 1))·scales from GPTQ's packed words, each row's group
// from g_idx (spec section OP-INT4).
//
// Data (common/int4_weights.h): every nibble value in every position, of the weights (eight
// input rows to a word) and the zero points (eight output columns), short last words whose
// unused nibbles hold garbage; scales whose exponents differ by group and column. g_idx groups
// the rows in order (group_size = ⌈K/G⌉) or, act-order, the same grouping shuffled over K, so a
// kernel that takes the group from the row's index goes wrong on most rows.
#include <algorithm>
#include <random>

#include "common/flop_counts.h"
#include "common/int4_weights.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/perf_check.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct GptqProblem : Param<GptqProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F16;  // out's and scales'
  size_t k = 8, n = 8, groups = 1;
  bool act_order = false;  // g_idx shuffled (desc_act checkpoints)

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__k" + std::to_string(k) + "_n" + std::to_string(n) + "_groups" +
           std::to_string(groups) + (act_order ? "__act_order" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("k", k);
    field("n", n);
    field("groups", groups);
    field("act_order", act_order);
  }
};

size_t WordsFor(size_t count) { return (count + kInt4PerWord - 1) / kInt4PerWord; }

struct DequantizeGptqOp {
  using Problem = GptqProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "dequantize_gptq";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"out", Role::kOutput, p.dtype, ContiguousLayout({p.k, p.n})},
            {"qweight", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({WordsFor(p.k), p.n})},
            {"scales", Role::kInput, p.dtype, ContiguousLayout({p.groups, p.n})},
            {"zeros", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.groups, WordsFor(p.n)})},
            {"g_idx", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.k})}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::DequantizeGPTQ>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    StorePacked(RandomNibbles({p.k, p.n}, rng), 0, NibbleOrder::kSequential, t[1], rng);
    StorePacked(RandomNibbles({p.groups, p.n}, rng), 1, NibbleOrder::kSequential, t[3], rng);
    FillGroupScales(t[2], rng);
    const size_t group_size = (p.k + p.groups - 1) / p.groups;
    std::vector<size_t> group_of_row(p.k);
    for (size_t k = 0; k < p.k; ++k) group_of_row[k] = std::min(k / group_size, p.groups - 1);
    if (p.act_order) std::shuffle(group_of_row.begin(), group_of_row.end(), rng);
    for (size_t k = 0; k < p.k; ++k) t[4].SetAt(k, static_cast<double>(group_of_row[k]));
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::DequantizeGPTQ(t[1], t[2], t[3], t[4])};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(p.k * p.n); }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16}; }
  static std::vector<infiniDtype_t> OptionalDtypes() { return {INFINI_DTYPE_BF16}; }

  static Problem Make(infiniDtype_t dtype, size_t k, size_t n, size_t groups, bool act_order = false) {
    Problem p;
    p.dtype = dtype;
    p.k = k;
    p.n = n;
    p.groups = groups;
    p.act_order = act_order;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 32, 16, 2); }

  // InfiniCore checks these with assert() alone: refusals the spec recommends (OP-DEQUANTIZEGPTQ-3).
  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F16, 32, 16, 2));
    bad.AddRecommended("qweight_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_I64; });
    bad.AddRecommended("g_idx_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[4].dtype = INFINI_DTYPE_I64; });
    bad.AddRecommended("scales_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F32; });
    bad.AddRecommended("qweight_packed_by_columns", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {32, 2}); });
    bad.AddRecommended("zeros_unpacked", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {2, 16}); });
    bad.AddRecommended("g_idx_k_minus_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {31}); });
    bad.AddRecommended("scales_3_groups", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {3, 16}); });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-DEQUANTIZEGPTQ-2", "OP-DEQUANTIZEGPTQ-4"},
            {"OP-DEQUANTIZEGPTQ-1"},
            {"OP-DEQUANTIZEGPTQ-2"},
            {},
            {},
            {"OP-DEQUANTIZEGPTQ-3"}};
  }
};

INFINICTS_OP_CASES(DequantizeGptqOp);
INFINICTS_OP_WORKSPACE_CASES(DequantizeGptqOp);

// Perf: Llama-3-8B's GPTQ projections (spec OP-PERF), act-order, unpacked whole; 256 sampled
// elements checked, each from its value and zero point as one-value words.
struct DequantizeGptqWorkload {
  using Op = DequantizeGptqOp;
  static std::vector<std::string> MathClauses() { return {"OP-DEQUANTIZEGPTQ-4"}; }
  static std::vector<PerfProblem> Problems() {
    return W4A16LayerProblems();
  }
  static GptqProblem At(const PerfProblem &p) {
    return DequantizeGptqOp::Make(p.dtype, p.Dim("k"), p.Dim("n"), p.Dim("groups"), true);
  }
  static PerfElement Element(const GptqProblem &p) {
    return [p](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t k = flat / p.n, n = flat % p.n;
      const auto group = static_cast<size_t>(t[4].GetAt(k));
      const auto word = static_cast<uint32_t>(t[1].GetInt({k / kInt4PerWord, n}));
      const auto zero_word = static_cast<uint32_t>(t[3].GetInt({group, n / kInt4PerWord}));
      HostTensor q(INFINI_DTYPE_U8, Shape{1, 1}), z(INFINI_DTYPE_U8, Shape{1, 1});
      q.SetAt(0, Int4Value(word, NibbleOrder::kSequential, k % kInt4PerWord));
      z.SetAt(0, Int4Value(zero_word, NibbleOrder::kSequential, n % kInt4PerWord));
      const HostTensor scale = GatherElements(t[2], {1, 1}, group * p.n + n, 1);
      const HostTensor one_row = HostTensor::FromValues(INFINI_DTYPE_I32, {1}, {0});
      return oracle::DequantizeGPTQ(PackInt4(q, 0, NibbleOrder::kSequential), scale,
                                    PackInt4(z, 1, NibbleOrder::kSequential), one_row)
          .GetAt(0);
    };
  }
};
using DequantizeGptqPerf = OpPerf<DequantizeGptqWorkload>;
INFINICTS_OP_PERF_CASES(DequantizeGptqPerf);

}  // namespace
}  // namespace infinicts::op_cases
