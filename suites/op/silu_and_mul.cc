// SiluAndMul: output[..., j] = silu(input[..., j]) · input[..., d + j], the input's last dim
// 2d split into the gate (first half) and the up projection (second half) (spec section
// OP-SILUANDMUL).
//
// Data: the gate and the up halves are drawn from different ranges (the gate over ±10, the up
// half away from zero), so that a kernel that takes the halves the other way round, or
// interleaves them, misses by far; about one gate in sixteen is large (±90 to ±200), where
// e^x overflows F32 and silu written as x·e^x / (1 + e^x) gives NaN, and where e^-x
// overflows and a kernel must still give 0 (or x).
#include <cmath>
#include <random>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/row_lengths.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SiluAndMulProblem : Param<SiluAndMulProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape;  // the output's: [..., d]; the input is [..., 2d]
  LayoutKind output_layout = LayoutKind::kContiguous, input_layout = LayoutKind::kContiguous;

  Shape InputShape() const {
    Shape input = shape;
    input.back() *= 2;
    return input;
  }
  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"output", output_layout}, {"input", input_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);  // the output's; the input's follows (InputShape)
    field("output", output_layout);
    field("input", input_layout);
  }
};

// The gate half over ±10 with about one element in sixteen at ±[90, 200]; the up half with
// magnitudes in [0.25, 2] and random signs.
void FillGateAndUp(HostTensor &input, Rng &rng) {
  const size_t width = input.shape().back(), half = width / 2;
  std::uniform_real_distribution<double> gate(-10.0, 10.0), large(90.0, 200.0), up(0.25, 2.0);
  for (size_t i = 0; i < input.numel(); ++i) {
    const bool is_gate = i % width < half;
    const double sign = rng() % 2 ? 1.0 : -1.0;
    if (!is_gate) {
      input.SetAt(i, sign * up(rng));
    } else if (rng() % 16 == 0) {
      input.SetAt(i, sign * large(rng));
    } else {
      input.SetAt(i, gate(rng));
    }
  }
}

struct SiluAndMulOp {
  using Problem = SiluAndMulProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "silu_and_mul";
  static constexpr const char *kTensorRoles = "output[rows,~d]=input input[rows,~two_d]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"output", Role::kOutput, p.dtype, MakeLayout(p.output_layout, p.shape)},
            {"input", Role::kInput, p.dtype, MakeLayout(p.input_layout, p.InputShape())}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::SiluAndMul>(); }

  static void Fill(const Problem &, std::vector<HostTensor> &t, Rng &rng) { FillGateAndUp(t[1], rng); }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::SiluAndMul(t[1])};
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape));
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape shape) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 5}));
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    // The input's last dim must be twice the output's: not equal to it, not one more.
    bad.Add("input_last_dim_d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 5}); });
    bad.Add("input_last_dim_2d_plus_1", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 11}); });
    bad.Add("rows_differ", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {3, 10}); });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-SILUANDMUL-3", "OP-SILUANDMUL-4"}, {"OP-SILUANDMUL-1"}, {"OP-SILUANDMUL-2"}, {}, {}};
  }
};

INFINICTS_OP_CASES(SiluAndMulOp);
INFINICTS_OP_WORKSPACE_CASES(SiluAndMulOp);

// Perf: the FFN's gated activation on the fused gate-and-up projection, input
// [tokens, 2·intermediate], output [tokens, intermediate], at each serving model's FFN width.
// The gates reach ±200 as in the accuracy cases; the whole output is checked.
struct SiluAndMulWorkload {
  using Op = SiluAndMulOp;
  static std::vector<std::string> MathClauses() { return {"OP-SILUANDMUL-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("ffn_silu_and_mul", RowWidth::kIntermediate, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            ServingModels());
  }
  static SiluAndMulOp::Problem At(const PerfProblem &p) {
    return SiluAndMulOp::Make(p.dtype, {p.Dim("tokens"), p.Dim("width")});
  }
};
using SiluAndMulPerf = OpPerf<SiluAndMulWorkload>;
INFINICTS_OP_PERF_CASES(SiluAndMulPerf);

}  // namespace
}  // namespace infinicts::op_cases
