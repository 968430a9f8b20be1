// A W8A8 linear layer end to end, as a serving engine runs it (spec OP-I8GEMM-7): float
// activations x [M, K] quantised per token by PerChannelQuantI8, then I8Gemm against weights
// quantised offline per output column, with a bias; both calls queued on one stream, the
// first's x_packed and x_scale handed to the second in device memory.
//
// Checked: the quantiser's outputs against its oracle (OP-PERCHANNELQUANTINT8-3, either
// neighbour near a half); out against I8Gemm's oracle on the values the quantiser gave
// (OP-I8GEMM-4); and out against the float layer x·W + bias, within what quantising x and W
// can cost: Σ_k (s_m/2)·|q[k, n]·ws[n]| + (ws[n]/2)·|x[m, k]|, metric
// `quantisation_error_of_bound` (the largest share of that bound used).
//
// Data: rows of x of magnitudes 2^-2 … 2^2, every fourth with an outlier twenty times the rest
// (the activations W8A8 serving struggles with); weights of column magnitudes differing by
// powers of two, so that the per-column scales matter.
#include <cmath>
#include <random>

#include "common/checks.h"
#include "common/flop_counts.h"
#include "common/int8_quant.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/step_cases.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct W8A8LinearProblem : Param<W8A8LinearProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F16;  // x's, out's and bias's
  size_t m = 1, n = 1, k = 1;
  bool bias = true;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" +
           std::to_string(k) + (bias ? "" : "__no_bias");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("m", m);
    field("n", n);
    field("k", k);
    field("bias", bias);
  }
};

// The quantiser's call: x_packed, x_scale [M, 1], no x_zero, x.
std::vector<TensorSpec> QuantSpecs(const W8A8LinearProblem &p) {
  std::vector<TensorSpec> specs = {{"x_packed", Role::kOutput, INFINI_DTYPE_I8, ContiguousLayout({p.m, p.k})},
                                   {"x_scale", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({p.m, 1})},
                                   {"x_zero", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({p.m, 1})},
                                   {"x", Role::kInput, p.dtype, ContiguousLayout({p.m, p.k})}};
  specs[2].present = false;
  specs[2].optional = true;
  return specs;
}

// The Gemm's call: out, bias, x, x_scale [M, 1], weights column-major, weights_scale [N].
std::vector<TensorSpec> GemmSpecs(const W8A8LinearProblem &p) {
  std::vector<TensorSpec> specs = {{"out", Role::kOutput, p.dtype, ContiguousLayout({p.m, p.n})},
                                   {"bias", Role::kInput, p.dtype, ContiguousLayout({p.n})},
                                   {"x", Role::kInput, INFINI_DTYPE_I8, ContiguousLayout({p.m, p.k})},
                                   {"x_scale", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({p.m, 1})},
                                   {"weights", Role::kInput, INFINI_DTYPE_I8, MakeLayout(LayoutKind::kTransposed, {p.k, p.n})},
                                   {"weights_scale", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({p.n})}};
  specs[1].present = p.bias;
  specs[1].optional = true;
  return specs;
}

struct W8A8LinearStep : StepCaseSets<W8A8LinearStep, W8A8LinearProblem> {
  using Problem = W8A8LinearProblem;
  static constexpr const char *kSubject = "w8a8_linear";
  static std::vector<TensorSpec> Specs(const Problem &p) { return GemmSpecs(p); }
  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16}; }
  static Problem ProbeProblem(infiniDtype_t dtype) {
    Problem p;
    p.dtype = dtype;
    p.m = 5;
    p.n = 6;
    p.k = 7;
    return p;
  }
  static void Run(const Problem &p);  // below, with the data it needs
};

// The layer's float weights W [K, N], before quantisation (x and the bias are the calls' own).
struct FloatLayer {
  std::vector<double> weights;  // W[k·N + n]
};

// Weights quantised offline, per output column: ws[n] = max_k |W[k, n]|/127 (an F32), q = rha(W/ws).
void QuantizeWeights(const W8A8LinearProblem &p, const FloatLayer &layer, HostTensor &q, HostTensor &scale) {
  for (size_t n = 0; n < p.n; ++n) {
    double top = 0.0;
    for (size_t k = 0; k < p.k; ++k) top = std::max(top, std::fabs(layer.weights[k * p.n + n]));
    const double ws = static_cast<double>(static_cast<float>(top / 127.0));
    scale.SetAt(n, ws);
    for (size_t k = 0; k < p.k; ++k) q.SetAt(k * p.n + n, std::round(layer.weights[k * p.n + n] / ws));
  }
}

// out against the float layer x·W + bias, within Σ_k (s_m/2)·|q[k, n]·ws[n]| + (ws[n]/2)·|x[m, k]|
// (OP-I8GEMM-7).
void CheckAgainstFloatLayer(const W8A8LinearProblem &p, const HostTensor &x, const FloatLayer &layer,
                            const HostTensor &x_scale, const HostTensor &q, const HostTensor &ws,
                            const HostTensor *bias, const HostTensor &out) {
  const std::vector<double> xs = x.ToDoubles(), qs = q.ToDoubles(), column_scale = ws.ToDoubles(),
                            row_scale = x_scale.ToDoubles(),
                            shift = bias != nullptr ? bias->ToDoubles() : std::vector<double>(p.n, 0.0);
  std::vector<double> exact(p.m * p.n), bound(p.m * p.n, 0.0);
  for (size_t m = 0; m < p.m; ++m) {
    const double s = row_scale[m];
    const double *x_row = xs.data() + m * p.k;
    for (size_t n = 0; n < p.n; ++n) {
      double &e = exact[m * p.n + n];
      e = shift[n];
      for (size_t k = 0; k < p.k; ++k) {
        e += x_row[k] * layer.weights[k * p.n + n];
        bound[m * p.n + n] +=
            0.5 * s * std::fabs(qs[k * p.n + n] * column_scale[n]) + 0.5 * column_scale[n] * std::fabs(x_row[k]);
      }
    }
  }
  CheckAgainstFloatModel("OP-I8GEMM-7", p.n, out.ToDoubles(), exact, bound, ToleranceFor("i8_gemm", p.dtype));
}

void W8A8LinearStep::Run(const W8A8LinearProblem &p) {
  Rng rng = CaseRng();
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<PreparedCall> calls(2);
  PreparedCall &quant = calls[0], &gemm = calls[1];
  quant.subject = "per_channel_quant_int8";
  gemm.subject = "i8_gemm";
  quant.problem_json = gemm.problem_json = p.Json();
  quant.specs = QuantSpecs(p);
  gemm.specs = GemmSpecs(p);
  quant.tensors = AllocateHostTensors(quant.specs);
  gemm.tensors = AllocateHostTensors(gemm.specs);
  HostTensor &x = quant.tensors[3];
  for (size_t m = 0; m < p.m; ++m) {
    const double magnitude = std::ldexp(1.0, static_cast<int>(m % 5) - 2);
    for (size_t k = 0; k < p.k; ++k) x.SetAt(m * p.k + k, magnitude * unit(rng));
    if (m % 4 == 3) x.SetAt(m * p.k + rng() % p.k, 20.0 * magnitude);
  }
  FloatLayer layer;
  layer.weights.resize(p.k * p.n);
  for (size_t k = 0; k < p.k; ++k) {
    for (size_t n = 0; n < p.n; ++n) {
      layer.weights[k * p.n + n] = std::ldexp(unit(rng), -static_cast<int>(n % 3)) / std::sqrt(static_cast<double>(p.k));
    }
  }
  QuantizeWeights(p, layer, gemm.tensors[4], gemm.tensors[5]);
  if (p.bias) {
    for (size_t n = 0; n < p.n; ++n) gemm.tensors[1].SetAt(n, 0.5 * unit(rng));
  }
  const oracle::Int8QuantResult quantised = oracle::PerChannelQuantI8(x, false);
  SetExpectations(quant, {quantised.packed, quantised.scale});
  // out's expectation waits for the int8 values the quantiser gives (the settle hook below).
  SetExpectations(gemm, {}, Oracle::kNotComputed);
  quant.calls = OperatorCalls<api::PerChannelQuantI8>();
  gemm.calls = OperatorCalls<api::I8Gemm>();
  quant.flops = FlopsPerElement(quant.subject) * static_cast<double>(p.m * p.k);
  gemm.flops = 2.0 * static_cast<double>(p.m * p.n * p.k);
  const std::vector<StepLink> links = {{1, 2, 0, 0}, {1, 3, 0, 1}};  // x and x_scale from the quantiser
  RunStepAndVerify(calls, links, [&](const StepOutputs &back, std::vector<PreparedCall> &step) {
    // The quantiser's values where the spec accepts either neighbour of a half as it chose
    // them, and I8Gemm's oracle on those.
    step[0].expected[0] = SettleNearHalves(quantised.packed, back[0][0], quantised.also_accepted);
    const HostTensor &packed = step[0].expected[0];
    const HostTensor *bias = p.bias ? &step[1].tensors[1] : nullptr;
    step[1].expected[0] = oracle::I8Gemm(packed, quantised.scale, step[1].tensors[4], step[1].tensors[5], bias);
    CheckAgainstFloatLayer(p, x, layer, quantised.scale, step[1].tensors[4], step[1].tensors[5], bias, back[1][0]);
  });
}

INFINICTS_OP_STEP_CASES(W8A8LinearStep, (std::vector<std::string>{"OP-ACC-1", "OP-MEM-1", "OP-MEM-2", "OP-STREAM-1",
                                                                 "OP-PERCHANNELQUANTINT8-3", "OP-I8GEMM-4", "OP-I8GEMM-7"}));

}  // namespace
}  // namespace infinicts::op_cases
