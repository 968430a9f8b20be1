// An AWQ (W4A16) linear layer end to end, as a serving engine without a fused int4 GEMM runs
// it (spec OP-DEQUANTIZEAWQ-5): DequantizeAWQ unpacks the layer's weights into W' [K, N] in
// device memory, then Gemm sets out = x·W'; both calls queued on one stream, the first's out
// handed to the second as b.
//
// Checked: W' against DequantizeAWQ's oracle (OP-DEQUANTIZEAWQ-4); out against Gemm's oracle on
// that W' (OP-GEMM-4); and out against the float layer x·W, within what quantising W costs:
// Σ_k |x[m, k]|·|W[k, n] − W'[k, n]|, metric `quantisation_error_of_bound` (the largest share of
// that bound, plus Gemm's tolerance, used).
//
// Data: the float weights quantised as AWQ's checkpoints are, per group of rows and output
// column with a scale (F16) and a zero point: s = (max − min)/15, z = rha(−min/s), q =
// clamp(rha(W/s) + z, 0, 15); column magnitudes differing by powers of two; x of unit scale.
#include <algorithm>
#include <cmath>
#include <random>

#include "common/checks.h"
#include "common/flop_counts.h"
#include "common/int4_weights.h"
#include "common/op_cases.h"
#include "common/step_cases.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct AwqLinearProblem : Param<AwqLinearProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F16;  // x's, out's and the scales'
  size_t m = 1, n = 8, k = 8, groups = 1;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" +
           std::to_string(k) + "_groups" + std::to_string(groups);
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("m", m);
    field("n", n);
    field("k", k);
    field("groups", groups);
  }
};

// DequantizeAWQ's call: W' [K, N], qweight, scales, zeros.
std::vector<TensorSpec> DequantSpecs(const AwqLinearProblem &p) {
  const size_t words = p.n / kInt4PerWord;
  return {{"weights", Role::kOutput, p.dtype, ContiguousLayout({p.k, p.n})},
          {"qweight", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.k, words})},
          {"scales", Role::kInput, p.dtype, ContiguousLayout({p.groups, p.n})},
          {"zeros", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.groups, words})}};
}

// Gemm's call: out [M, N] = x [M, K]·W' [K, N].
std::vector<TensorSpec> GemmSpecs(const AwqLinearProblem &p) {
  return {{"out", Role::kOutput, p.dtype, ContiguousLayout({p.m, p.n})},
          {"x", Role::kInput, p.dtype, ContiguousLayout({p.m, p.k})},
          {"weights", Role::kInput, p.dtype, ContiguousLayout({p.k, p.n})}};
}

struct AwqLinearStep : StepCaseSets<AwqLinearStep, AwqLinearProblem> {
  using Problem = AwqLinearProblem;
  static constexpr const char *kSubject = "awq_linear";
  static std::vector<TensorSpec> Specs(const Problem &p) { return DequantSpecs(p); }
  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16}; }
  static Problem ProbeProblem(infiniDtype_t dtype) {
    Problem p;
    p.dtype = dtype;
    p.m = 3;
    p.n = 16;
    p.k = 32;
    p.groups = 2;
    return p;
  }
  static void Run(const Problem &p);  // below, with the data it needs
};

// The float weights W [K, N] quantised per group and column as AWQ's checkpoints are: the
// nibble values q and z written packed, the scales in their dtype.
void QuantizeWeights(const AwqLinearProblem &p, const std::vector<double> &w, std::vector<HostTensor> &t, Rng &rng) {
  const size_t group_size = p.k / p.groups;
  HostTensor q(INFINI_DTYPE_U8, Shape{p.k, p.n}), z(INFINI_DTYPE_U8, Shape{p.groups, p.n});
  for (size_t g = 0; g < p.groups; ++g) {
    for (size_t n = 0; n < p.n; ++n) {
      double lo = w[g * group_size * p.n + n], hi = lo;
      for (size_t k = g * group_size; k < (g + 1) * group_size; ++k) {
        lo = std::min(lo, w[k * p.n + n]);
        hi = std::max(hi, w[k * p.n + n]);
      }
      t[2].SetAt(g * p.n + n, (hi - lo) / 15.0);
      const double s = t[2].GetAt(g * p.n + n);  // as stored
      const double zero = std::clamp(std::round(-lo / s), 0.0, 15.0);
      z.SetAt(g * p.n + n, zero);
      for (size_t k = g * group_size; k < (g + 1) * group_size; ++k) {
        q.SetAt(k * p.n + n, std::clamp(std::round(w[k * p.n + n] / s) + zero, 0.0, 15.0));
      }
    }
  }
  StorePacked(q, 1, NibbleOrder::kAwq, t[1], rng);
  StorePacked(z, 1, NibbleOrder::kAwq, t[3], rng);
}

// out against the float layer x·W, within Σ_k |x[m, k]|·|W[k, n] − W'[k, n]| (OP-DEQUANTIZEAWQ-5).
void CheckAgainstFloatLayer(const AwqLinearProblem &p, const HostTensor &x, const std::vector<double> &w,
                            const HostTensor &dequantised, const HostTensor &out) {
  const std::vector<double> xs = x.ToDoubles(), ws = dequantised.ToDoubles();
  std::vector<double> exact(p.m * p.n, 0.0), bound(p.m * p.n, 0.0);
  for (size_t m = 0; m < p.m; ++m) {
    for (size_t n = 0; n < p.n; ++n) {
      for (size_t k = 0; k < p.k; ++k) {
        exact[m * p.n + n] += xs[m * p.k + k] * w[k * p.n + n];
        bound[m * p.n + n] += std::fabs(xs[m * p.k + k]) * std::fabs(w[k * p.n + n] - ws[k * p.n + n]);
      }
    }
  }
  CheckAgainstFloatModel("OP-DEQUANTIZEAWQ-5", p.n, out.ToDoubles(), exact, bound, ToleranceFor("gemm", p.dtype));
}

void AwqLinearStep::Run(const AwqLinearProblem &p) {
  Rng rng = CaseRng();
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<PreparedCall> calls(2);
  PreparedCall &dequant = calls[0], &gemm = calls[1];
  dequant.subject = "dequantize_awq";
  gemm.subject = "gemm";
  dequant.problem_json = gemm.problem_json = p.Json();
  dequant.specs = DequantSpecs(p);
  gemm.specs = GemmSpecs(p);
  NoteOptionalDtypes(dequant.specs, {INFINI_DTYPE_BF16});  // OP-DEQUANTIZEAWQ-1: BF16 MAY be refused
  dequant.tensors = AllocateHostTensors(dequant.specs);
  gemm.tensors = AllocateHostTensors(gemm.specs);
  std::vector<double> w(p.k * p.n);
  for (size_t k = 0; k < p.k; ++k) {
    for (size_t n = 0; n < p.n; ++n) {
      w[k * p.n + n] = std::ldexp(unit(rng), -static_cast<int>(n % 3)) / std::sqrt(static_cast<double>(p.k));
    }
  }
  QuantizeWeights(p, w, dequant.tensors, rng);
  HostTensor &x = gemm.tensors[1];
  for (size_t i = 0; i < x.numel(); ++i) x.SetAt(i, unit(rng));
  const HostTensor dequantised = oracle::DequantizeAWQ(dequant.tensors[1], dequant.tensors[2], dequant.tensors[3]);
  SetExpectations(dequant, {dequantised});
  // Gemm's oracle on W' as the spec gives it (the first call's own check holds the device to it).
  const HostTensor weights = dequantised.ToDtype(p.dtype);
  SetExpectations(gemm, {oracle::Gemm(gemm.tensors[0], x, weights, 1.0, 0.0)});
  dequant.calls = OperatorCalls<api::DequantizeAWQ>();
  gemm.calls = OperatorCalls<api::Gemm>(std::tuple<>(), std::make_tuple(1.0f, 0.0f));
  dequant.flops = FlopsPerElement(dequant.subject) * static_cast<double>(p.k * p.n);
  gemm.flops = 2.0 * static_cast<double>(p.m * p.n * p.k);
  const std::vector<StepLink> links = {{1, 2, 0, 0}};  // b from DequantizeAWQ's out
  RunStepAndVerify(calls, links, [&](const StepOutputs &back, std::vector<PreparedCall> &) {
    CheckAgainstFloatLayer(p, x, w, weights, back[1][0]);
  });
}

INFINICTS_OP_STEP_CASES(AwqLinearStep, (std::vector<std::string>{"OP-ACC-1", "OP-MEM-1", "OP-MEM-2", "OP-STREAM-1",
                                                                 "OP-DEQUANTIZEAWQ-4", "OP-GEMM-4", "OP-DEQUANTIZEAWQ-5"}));

}  // namespace
}  // namespace infinicts::op_cases
