// MulScalar: output = alpha · input, alpha a double given at compute (spec section OP-MULSCALAR).
//
// Data: inputs away from zero; alphas negative, fractional (1/3, which no binary dtype holds),
// small and large, each a case of its own, so an alpha read as another type, of another sign or
// rounded to an integer shows. Both tensors run transposed, padded, offset, as views and walked
// backwards, the input also broadcast; output = input in place.
#include <string>
#include <utility>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct MulScalarProblem : Param<MulScalarProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape = {4, 6};
  LayoutKind output_layout = LayoutKind::kContiguous, input_layout = LayoutKind::kContiguous;
  double alpha = -0.75;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"output", output_layout}, {"input", input_layout}}) + "__alpha_" + NumberName(alpha);
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("output", output_layout);
    field("input", input_layout);
    field("alpha", alpha);
  }
};

struct MulScalarOp {
  using Problem = MulScalarProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "mul_scalar";
  static constexpr const char *kTensorRoles = "output[a,b]=input input[a,b]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"output", Role::kOutput, p.dtype, MakeLayout(p.output_layout, p.shape)},
            {"input", Role::kInput, p.dtype, MakeLayout(p.input_layout, p.shape)}};
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::MulScalar>(std::tuple<>(), std::make_tuple(p.alpha));
  }

  static void Fill(const Problem &, std::vector<HostTensor> &t, Rng &rng) { FillAwayFromZero(t[1], rng, 0.25, 4.0); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {oracle::MulScalar(t[1], p.alpha)};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape)); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape shape, double alpha) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.alpha = alpha;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 6}, -0.75); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 6}, -0.75));
    bad.Add("output_transposed_shape", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {6, 4}); });
    bad.Add("output_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {24}); });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {{0, 1}}; }

  static OpClauses Clauses() { return {{"OP-MULSCALAR-3"}, {"OP-MULSCALAR-1"}, {"OP-MULSCALAR-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(MulScalarOp);
INFINICTS_OP_WORKSPACE_CASES(MulScalarOp);

// Perf: Llama-3-8B's hidden states [tokens, 4096] scaled (a residual or embedding scale), at the
// cheap operators' token counts. Costed as one multiply per element, input read, output written.
struct MulScalarWorkload {
  using Op = MulScalarOp;
  static std::vector<std::string> MathClauses() { return {"OP-MULSCALAR-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("hidden_scale", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            {kLlama3_8B});
  }
  static MulScalarOp::Problem At(const PerfProblem &p) { return MulScalarOp::Make(p.dtype, TokenRowShape(p), 1.4); }
};
using MulScalarPerf = OpPerf<MulScalarWorkload>;
INFINICTS_OP_PERF_CASES(MulScalarPerf);

}  // namespace
}  // namespace infinicts::op_cases
