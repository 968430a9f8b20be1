// I8Gemm: out = x_scale[m]·weights_scale[n]·(x · weights)[m, n] + bias[n], int8 operands summed
// exactly (spec section OP-I8GEMM).
//
// Data: rows of x and columns of weights take turns among five kinds: full-range values
// (−128 … 127), all −128, all 127, only the extremes (−128 and 127 at random), and small
// values (−8 … 8). Rows and columns at the extremes make every pair of products the largest
// there is: a kernel that sums pairs in 16 bits (vpmaddubsw, int16 accumulators) saturates or
// wraps there, and reading int8 as unsigned moves −128 to 128. The scales differ by powers of
// two from row to row and column to column (a scale taken from the wrong row or column shows)
// and keep every output within a few hundred; the bias is of the outputs' size, so a bias
// dropped, added per row or added before the scaling shows.
#include <cmath>
#include <random>

#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/perf_check.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct I8GemmProblem : Param<I8GemmProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F16;  // out's (and bias's)
  size_t m = 1, n = 1, k = 1;
  bool bias = true;
  bool column_scales_2d = false;  // x_scale [M, 1] and weights_scale [1, N] instead of [M] and [N]
  LayoutKind x_layout = LayoutKind::kContiguous, weights_layout = LayoutKind::kTransposed,
             out_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" +
           std::to_string(k) + "__" +
           LayoutsName({{"x", x_layout}, {"weights", weights_layout}, {"out", out_layout}}) +
           (bias ? "" : "__no_bias") + (column_scales_2d ? "__scales_2d" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("m", m);
    field("n", n);
    field("k", k);
    field("bias", bias);
    field("scales_2d", column_scales_2d);
    field("x", x_layout);
    field("weights", weights_layout);
    field("out", out_layout);
  }
};

enum class LineKind { kFullRange, kAllLowest, kAllHighest, kExtremes, kSmall };
constexpr size_t kLineKinds = 5;

double LineValue(size_t line, Rng &rng) {
  switch (static_cast<LineKind>(line % kLineKinds)) {
    case LineKind::kFullRange: return static_cast<double>(static_cast<int>(rng() % 256) - 128);
    case LineKind::kAllLowest: return -128.0;
    case LineKind::kAllHighest: return 127.0;
    case LineKind::kExtremes: return rng() % 2 ? 127.0 : -128.0;
    case LineKind::kSmall: return static_cast<double>(static_cast<int>(rng() % 17) - 8);
  }
  return 0.0;
}

struct I8GemmOp {
  using Problem = I8GemmProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "i8_gemm";
  static constexpr const char *kTensorRoles = "out[m,n] bias x[m,k]:int x_scale weights[k,n]:int weights_scale";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const Shape x_scale = p.column_scales_2d ? Shape{p.m, 1} : Shape{p.m};
    const Shape weights_scale = p.column_scales_2d ? Shape{1, p.n} : Shape{p.n};
    std::vector<TensorSpec> specs = {
        {"out", Role::kOutput, p.dtype, MakeLayout(p.out_layout, {p.m, p.n})},
        {"bias", Role::kInput, p.dtype, ContiguousLayout({p.n})},
        {"x", Role::kInput, INFINI_DTYPE_I8, MakeLayout(p.x_layout, {p.m, p.k})},
        {"x_scale", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout(x_scale)},
        {"weights", Role::kInput, INFINI_DTYPE_I8, MakeLayout(p.weights_layout, {p.k, p.n})},
        {"weights_scale", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout(weights_scale)}};
    specs[1].present = p.bias;
    specs[1].optional = true;
    return specs;
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::I8Gemm>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t m = 0; m < p.m; ++m) {
      for (size_t k = 0; k < p.k; ++k) t[2].SetAt(m * p.k + k, LineValue(m, rng));
    }
    for (size_t k = 0; k < p.k; ++k) {
      for (size_t n = 0; n < p.n; ++n) t[4].SetAt(k * p.n + n, LineValue(n, rng));
    }
    // x_scale[m]·weights_scale[n] ≤ 2.25 / (128·K): |out| ≤ 288 + |bias| at the extremes.
    std::uniform_real_distribution<double> unit(0.5, 1.5);
    const double base = 1.0 / std::sqrt(128.0 * static_cast<double>(std::max<size_t>(p.k, 1)));
    for (size_t m = 0; m < p.m; ++m) t[3].SetAt(m, unit(rng) * std::ldexp(base, -static_cast<int>(m % 3)));
    for (size_t n = 0; n < p.n; ++n) t[5].SetAt(n, unit(rng) * std::ldexp(base, -static_cast<int>(n % 4)));
    if (p.bias) {
      for (size_t n = 0; n < p.n; ++n) t[1].SetAt(n, (rng() % 2 ? 1.0 : -1.0) * unit(rng));
    }
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {oracle::I8Gemm(t[2], t[3], t[4], t[5], p.bias ? &t[1] : nullptr)};
  }

  static double Flops(const Problem &p) { return 2.0 * static_cast<double>(p.m) * p.n * p.k; }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16}; }
  static std::vector<infiniDtype_t> OptionalDtypes() { return {}; }

  static Problem Make(infiniDtype_t dtype, size_t m, size_t n, size_t k, bool bias = true) {
    Problem p;
    p.dtype = dtype;
    p.m = m;
    p.n = n;
    p.k = k;
    p.bias = bias;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 5, 6, 7); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F16, 5, 6, 7));
    bad.Add("out_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      s[0].dtype = INFINI_DTYPE_F32;
      s[1].dtype = INFINI_DTYPE_F32;
    });
    bad.Add("bias_bf16_with_out_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_BF16; });
    bad.Add("x_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_I32; });
    bad.Add("weights_u8", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[4].dtype = INFINI_DTYPE_U8; });
    bad.Add("x_scale_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_F16; });
    bad.Add("weights_scale_f64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[5].dtype = INFINI_DTYPE_F64; });
    bad.Add("x_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {35}); });
    bad.Add("all_4d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {1, 1, 5, 6});
      Reshape(s[2], {1, 1, 5, 7});
      Reshape(s[4], {1, 1, 7, 6});
    });
    // The scales and the bias of the wrong length: a SHOULD (OP-I8GEMM-3).
    bad.AddRecommended("x_scale_m_minus_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {4}); });
    bad.AddRecommended("weights_scale_n_plus_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[5], {7}); });
    bad.AddRecommended("bias_n_minus_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {5}); });
    bad.AddRecommended("x_scale_1_by_m", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {1, 5}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[3].dtype = INFINI_DTYPE_F16;
              Reshape(s[4], {8, 6});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-I8GEMM-4", "OP-I8GEMM-5", "OP-I8GEMM-6"}, {"OP-I8GEMM-1"}, {"OP-I8GEMM-2"}, {}, {}, {"OP-I8GEMM-3"}};
  }
};

INFINICTS_OP_CASES(I8GemmOp);
INFINICTS_OP_WORKSPACE_CASES(I8GemmOp);

// Perf: Llama-3-8B's W8A8 projections (spec OP-PERF), out (tokens × n) = x (tokens × k)·weights
// (k × n) with weights column-major and a bias: qkv (n = (32 + 2·8)·128), o, gate-up (each of
// the two) and down. The accuracy cases' data; 256 sampled elements checked against fp64.
struct I8GemmWorkload {
  using Op = I8GemmOp;
  static std::vector<std::string> MathClauses() { return {"OP-I8GEMM-4"}; }

  static std::vector<PerfProblem> Problems() {
    const LlmModel &l = kLlama3_8B;
    const std::vector<std::pair<std::string, std::pair<size_t, size_t>>> parts = {
        {"w8a8_qkv_proj", {(l.heads + 2 * l.kv_heads) * l.head_dim, l.hidden}},
        {"w8a8_o_proj", {l.hidden, l.heads * l.head_dim}},
        {"w8a8_gate_up_proj", {l.intermediate, l.hidden}},
        {"w8a8_down_proj", {l.hidden, l.intermediate}}};
    const std::vector<infiniDtype_t> dtypes =
        cts::FullProfile() ? std::vector<infiniDtype_t>{INFINI_DTYPE_F16, INFINI_DTYPE_BF16}
                           : std::vector<infiniDtype_t>{INFINI_DTYPE_F16};
    std::vector<PerfProblem> problems;
    for (size_t tokens : PerfTokens(PerfWeight::kHeavy)) {
      for (const auto &[part, nk] : parts) {
        for (infiniDtype_t dtype : dtypes) {
          PerfProblem problem;
          problem.dtype = dtype;
          problem.model = l.name;
          problem.part = part;
          problem.tokens = tokens;
          problem.dims = {{"m", tokens}, {"n", nk.first}, {"k", nk.second}};
          problems.push_back(problem);
        }
      }
    }
    return problems;
  }

  static I8GemmProblem At(const PerfProblem &p) { return I8GemmOp::Make(p.dtype, p.Dim("m"), p.Dim("n"), p.Dim("k")); }

  static PerfElement Element(const I8GemmProblem &p) {
    return [n = p.n, k = p.k](const std::vector<HostTensor> &t, size_t, size_t flat) {
      // x row-major, weights column-major and the vectors contiguous (At's problems).
      const size_t row = flat / n, column = flat % n;
      const HostTensor x_row = GatherElements(t[2], {1, k}, row * k, 1);
      // Storage positions: weights are column-major, so column n is the run n·k, n·k + 1, ...
      const HostTensor weights_column = GatherElements(t[4], {k, 1}, column * k, 1);
      const HostTensor x_scale = GatherElements(t[3], {1}, row, 1);
      const HostTensor weights_scale = GatherElements(t[5], {1}, column, 1);
      const HostTensor bias = GatherElements(t[1], {1}, column, 1);
      return oracle::I8Gemm(x_row, x_scale, weights_column, weights_scale, &bias).GetAt(0);
    };
  }
};
using I8GemmPerf = OpPerf<I8GemmWorkload>;
INFINICTS_OP_PERF_CASES(I8GemmPerf);

}  // namespace
}  // namespace infinicts::op_cases
