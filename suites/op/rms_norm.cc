// RMSNorm: y = x·w / sqrt(mean(x²) + epsilon) over the last dim (spec section OP-RMSNORM).
//
// Data: most problems use rows whose mean square is within a factor 4 of epsilon, where
// putting epsilon outside the square root (x / (sqrt(mean(x²)) + eps)) changes the result
// by tens of percent; a few use ordinary rows. Half-precision x runs with a weight of its
// own dtype and with an F32 weight.
#include <cmath>

#include "common/layouts.h"
#include "common/flop_counts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/row_lengths.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct RmsNormProblem : Param<RmsNormProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;    // x and y
  infiniDtype_t w_dtype = INFINI_DTYPE_F32;
  Shape shape;
  LayoutKind y_layout = LayoutKind::kContiguous, x_layout = LayoutKind::kContiguous,
             w_layout = LayoutKind::kContiguous;
  double epsilon = 1e-5;
  bool small_rms = true;  // rows with mean(x²) near epsilon

  // epsilon travels as a float: the oracle uses the value the backend receives.
  double PassedEpsilon() const { return static_cast<double>(static_cast<float>(epsilon)); }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_w_" + DtypeName(w_dtype) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"y", y_layout}, {"x", x_layout}, {"w", w_layout}}) + "__eps_" + NumberName(epsilon) +
           (small_rms ? "_small_rms" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("w", w_dtype);
    field("y", y_layout);
    field("x", x_layout);
    field("w_layout", w_layout);
    field("eps", epsilon);
    field("small_rms", small_rms);
  }
};

struct RmsNormOp {
  using Problem = RmsNormProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "rms_norm";
  static constexpr const char *kTensorRoles = "y[rows,d]=x x[rows,d] w[d]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const Shape w_shape = {p.shape.empty() ? 1 : p.shape.back()};
    return {{"y", Role::kOutput, p.dtype, MakeLayout(p.y_layout, p.shape)},
            {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, p.shape)},
            {"w", Role::kInput, p.w_dtype, MakeLayout(p.w_layout, w_shape)}};
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::RMSNorm>(std::make_tuple(static_cast<float>(p.epsilon)));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    if (p.small_rms) {
      FillSmallRmsRows(t[1], rng, p.PassedEpsilon());
    } else {
      FillAwayFromZero(t[1], rng, 0.25, 2.0);
    }
    FillAwayFromZero(t[2], rng, 0.5, 1.5);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {oracle::RMSNorm(t[1], t[2], p.PassedEpsilon())};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape)); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t w_dtype, Shape shape) {
    Problem p;
    p.dtype = dtype;
    p.w_dtype = w_dtype;
    p.shape = std::move(shape);
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, dtype, {4, 5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, INFINI_DTYPE_F32, {4, 5}));
    const Problem half = Make(INFINI_DTYPE_F16, INFINI_DTYPE_F16, {4, 5});
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("x_f32_w_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F16; });
    bad.AddFor(half, "x_f16_w_f64", INFINI_STATUS_BAD_TENSOR_DTYPE,
               [](Specs &s) { s[2].dtype = INFINI_DTYPE_F64; });
    bad.Add("w_length_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {4}); });
    bad.Add("w_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {1, 5}); });
    bad.Add("y_4x6", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 6}); });
    bad.Add("x_scalar", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {});
      Reshape(s[1], {});
      Reshape(s[2], {1});
    });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[2].dtype = INFINI_DTYPE_F16;
              Reshape(s[2], {4});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[2], {4});
              s[0].layout.strides = {0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {{0, 1}}; }

  static OpClauses Clauses() { return {{"OP-RMSNORM-3"}, {"OP-RMSNORM-1"}, {"OP-RMSNORM-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(RmsNormOp);
INFINICTS_OP_WORKSPACE_CASES(RmsNormOp);

// Perf: the norm before attention and before the FFN over [tokens, hidden], epsilon 1e-5
// (Llama-2's), rows whose mean square is near epsilon as in the accuracy cases; the whole
// output is checked.
struct RmsNormWorkload {
  using Op = RmsNormOp;
  static std::vector<std::string> MathClauses() { return {"OP-RMSNORM-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("attn_norm", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes());
  }
  static RmsNormOp::Problem At(const PerfProblem &p) { return RmsNormOp::Make(p.dtype, p.dtype, TokenRowShape(p)); }
};
using RmsNormPerf = OpPerf<RmsNormWorkload>;
INFINICTS_OP_PERF_CASES(RmsNormPerf);

}  // namespace
}  // namespace infinicts::op_cases
