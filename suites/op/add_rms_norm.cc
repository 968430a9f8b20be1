// AddRMSNorm: residual_out = a + b and y = residual_out·weight / sqrt(mean(residual_out²) +
// epsilon) over the last dim (spec section OP-ADDRMSNORM).
//
// Data: most problems make b cancel most of a (a of magnitude 0.25 to 0.5, b = s − a for
// rows s whose mean square is within a factor 4 of epsilon), so that normalizing a or b
// alone, normalizing before the add, or epsilon outside the square root each miss by far;
// a few use ordinary rows. Half-precision data runs with a weight of its own dtype and
// with an F32 weight; residual_out = a and = b run in place (the decoder's residual update).
#include <cmath>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/row_lengths.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct AddRmsNormProblem : Param<AddRmsNormProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // y, residual_out, a, b
  infiniDtype_t w_dtype = INFINI_DTYPE_F32;
  Shape shape;
  LayoutKind y_layout = LayoutKind::kContiguous, residual_layout = LayoutKind::kContiguous,
             a_layout = LayoutKind::kContiguous, b_layout = LayoutKind::kContiguous;
  double epsilon = 1e-5;
  bool cancelling = true;  // b = s − a with mean(s²) near epsilon

  // epsilon travels as a float: the oracle uses the value the backend receives.
  double PassedEpsilon() const { return static_cast<double>(static_cast<float>(epsilon)); }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_w_" + DtypeName(w_dtype) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"y", y_layout}, {"residual_out", residual_layout}, {"a", a_layout}, {"b", b_layout}}) +
           "__eps_" + NumberName(epsilon) + (cancelling ? "_cancelling" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("w", w_dtype);
    field("y", y_layout);
    field("residual_out", residual_layout);
    field("a", a_layout);
    field("b", b_layout);
    field("eps", epsilon);
    field("cancelling", cancelling);
  }
};

// a with magnitudes in [0.25, 0.5]; b = s − a for rows s of mean square near epsilon, so
// that a + b = s up to b's rounding.
void FillCancellingPair(HostTensor &a, HostTensor &b, Rng &rng, double epsilon) {
  HostTensor sum(INFINI_DTYPE_F64, a.shape());
  FillSmallRmsRows(sum, rng, epsilon);
  FillAwayFromZero(a, rng, 0.25, 0.5);
  for (size_t i = 0; i < a.numel(); ++i) b.SetAt(i, sum.GetAt(i) - a.GetAt(i));
}

struct AddRmsNormOp {
  using Problem = AddRmsNormProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "add_rms_norm";
  static constexpr const char *kTensorRoles =
      "y[rows,d]=a residual_out[rows,d]=a a[rows,d] b[rows,d]=a weight[d]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const Shape w_shape = {p.shape.empty() ? 1 : p.shape.back()};
    return {{"y", Role::kOutput, p.dtype, MakeLayout(p.y_layout, p.shape)},
            {"residual_out", Role::kOutput, p.dtype, MakeLayout(p.residual_layout, p.shape)},
            {"a", Role::kInput, p.dtype, MakeLayout(p.a_layout, p.shape)},
            {"b", Role::kInput, p.dtype, MakeLayout(p.b_layout, p.shape)},
            {"weight", Role::kInput, p.w_dtype, ContiguousLayout(w_shape)}};
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::AddRMSNorm>(std::make_tuple(static_cast<float>(p.epsilon)));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    if (p.cancelling) {
      FillCancellingPair(t[2], t[3], rng, p.PassedEpsilon());
    } else {
      FillAwayFromZero(t[2], rng, 0.25, 2.0);
      FillAwayFromZero(t[3], rng, 0.25, 2.0);
    }
    FillAwayFromZero(t[4], rng, 0.5, 1.5);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::AddRMSNormResult result = oracle::AddRMSNorm(t[2], t[3], t[4], p.PassedEpsilon());
    return {result.y, result.residual_out};
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
    bad.Add("a_f32_weight_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[4].dtype = INFINI_DTYPE_F16; });
    bad.AddFor(half, "a_f16_weight_f64", INFINI_STATUS_BAD_TENSOR_DTYPE,
               [](Specs &s) { s[4].dtype = INFINI_DTYPE_F64; });
    bad.Add("weight_length_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {4}); });
    bad.Add("weight_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {1, 5}); });
    bad.Add("b_4x6", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {4, 6}); });
    bad.Add("residual_out_3x5", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {3, 5}); });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {{1, 2}, {1, 3}}; }

  static OpClauses Clauses() {
    return {{"OP-ADDRMSNORM-3", "OP-ADDRMSNORM-4"}, {"OP-ADDRMSNORM-1"}, {"OP-ADDRMSNORM-2"}, {}, {}};
  }
};

INFINICTS_OP_CASES(AddRmsNormOp);
INFINICTS_OP_WORKSPACE_CASES(AddRmsNormOp);

// Perf: the residual add and the norm before attention or the FFN, over [tokens, hidden]
// with weight [hidden] and epsilon 1e-6 (Llama-3's and Qwen2's), at each serving model's
// hidden size. a and b cancel to rows whose mean square is near epsilon, as in the accuracy
// cases; both outputs are checked whole.
struct AddRmsNormWorkload {
  using Op = AddRmsNormOp;
  static std::vector<std::string> MathClauses() { return {"OP-ADDRMSNORM-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("residual_norm", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            ServingModels());
  }
  static AddRmsNormProblem At(const PerfProblem &p) {
    AddRmsNormProblem problem = AddRmsNormOp::Make(p.dtype, p.dtype, TokenRowShape(p));
    problem.epsilon = 1e-6;
    return problem;
  }
};
using AddRmsNormPerf = OpPerf<AddRmsNormWorkload>;
INFINICTS_OP_PERF_CASES(AddRmsNormPerf);

}  // namespace
}  // namespace infinicts::op_cases
