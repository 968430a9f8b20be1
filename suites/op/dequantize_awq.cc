// DequantizeAWQ: out [K, N] = (q − z)·scales from AWQ's packed words (spec section OP-INT4).
//
// Data (common/int4_weights.h): every nibble value in every position of the words, zero points
// too, so a sequential reading of AWQ's interleaved order, a nibble read as signed or a missing
// mask shows; scales of full mantissas (the product needs its rounding) whose exponents differ
// by group and column; groups of 1 to 128 rows, a single group and a row per group.
#include <random>

#include "common/flop_counts.h"
#include "common/int4_weights.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/perf_check.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct AwqProblem : Param<AwqProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F16;  // out's and scales'
  size_t k = 8, n = 8, groups = 1;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__k" + std::to_string(k) + "_n" + std::to_string(n) + "_groups" +
           std::to_string(groups);
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("k", k);
    field("n", n);
    field("groups", groups);
  }
};

struct DequantizeAwqOp {
  using Problem = AwqProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "dequantize_awq";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const size_t words = p.n / kInt4PerWord;
    return {{"out", Role::kOutput, p.dtype, ContiguousLayout({p.k, p.n})},
            {"qweight", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.k, words})},
            {"scales", Role::kInput, p.dtype, ContiguousLayout({p.groups, p.n})},
            {"zeros", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.groups, words})}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::DequantizeAWQ>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    StorePacked(RandomNibbles({p.k, p.n}, rng), 1, NibbleOrder::kAwq, t[1], rng);
    StorePacked(RandomNibbles({p.groups, p.n}, rng), 1, NibbleOrder::kAwq, t[3], rng);
    FillGroupScales(t[2], rng);
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::DequantizeAWQ(t[1], t[2], t[3])};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(p.k * p.n); }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16}; }
  static std::vector<infiniDtype_t> OptionalDtypes() { return {INFINI_DTYPE_BF16}; }

  static Problem Make(infiniDtype_t dtype, size_t k, size_t n, size_t groups) {
    Problem p;
    p.dtype = dtype;
    p.k = k;
    p.n = n;
    p.groups = groups;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 32, 16, 2); }

  // InfiniCore's kernels check none of these: refusals the spec recommends (OP-DEQUANTIZEAWQ-3).
  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F16, 32, 16, 2));
    bad.AddRecommended("qweight_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_I64; });
    bad.AddRecommended("zeros_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_F16; });
    bad.AddRecommended("scales_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F32; });
    bad.AddRecommended("qweight_k_minus_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {31, 2}); });
    bad.AddRecommended("qweight_unpacked", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {32, 16}); });
    bad.AddRecommended("scales_packed", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {2, 2}); });
    bad.AddRecommended("zeros_3_groups", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {3, 2}); });
    bad.AddRecommended("groups_not_dividing_k", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[2], {3, 16});
      Reshape(s[3], {3, 2});
    });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-DEQUANTIZEAWQ-2", "OP-DEQUANTIZEAWQ-4"},
            {"OP-DEQUANTIZEAWQ-1"},
            {"OP-DEQUANTIZEAWQ-2"},
            {},
            {},
            {"OP-DEQUANTIZEAWQ-3"}};
  }
};

INFINICTS_OP_CASES(DequantizeAwqOp);
INFINICTS_OP_WORKSPACE_CASES(DequantizeAwqOp);

// Perf: Llama-3-8B's AWQ projections (spec OP-PERF) unpacked whole; 256 sampled elements checked,
// each from its word, its zero word and its group's eight scales.
struct DequantizeAwqWorkload {
  using Op = DequantizeAwqOp;
  static std::vector<std::string> MathClauses() { return {"OP-DEQUANTIZEAWQ-4"}; }
  static std::vector<PerfProblem> Problems() {
    return W4A16LayerProblems();
  }
  static AwqProblem At(const PerfProblem &p) {
    return DequantizeAwqOp::Make(p.dtype, p.Dim("k"), p.Dim("n"), p.Dim("groups"));
  }
  static PerfElement Element(const AwqProblem &p) {
    return [p](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t words = p.n / kInt4PerWord, k = flat / p.n, n = flat % p.n, group = k / (p.k / p.groups);
      const HostTensor word = GatherElements(t[1], {1, 1}, k * words + n / kInt4PerWord, 1);
      const HostTensor zero = GatherElements(t[3], {1, 1}, group * words + n / kInt4PerWord, 1);
      const HostTensor scales = GatherElements(t[2], {1, kInt4PerWord}, group * p.n + (n / kInt4PerWord) * kInt4PerWord, 1);
      return oracle::DequantizeAWQ(word, scales, zero).GetAt(n % kInt4PerWord);
    };
  }
};
using DequantizeAwqPerf = OpPerf<DequantizeAwqWorkload>;
INFINICTS_OP_PERF_CASES(DequantizeAwqPerf);

}  // namespace
}  // namespace infinicts::op_cases
