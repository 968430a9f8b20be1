// LayerNorm over the last dim, with its three outputs (output, input_standardization,
// input_std_deviation) and an optional bias (spec section OP-LAYERNORM).
//
// Data: most problems use rows with a common offset and a variance near epsilon, where
// epsilon's placement and a variance computed as E[x²] - mean² (cancellation) both show;
// one problem per dtype uses ordinary rows, each scaled by its own factor in [0.5, 2] so that
// the rows' standard deviations differ (long rows of one distribution would all share one).
#include "common/layouts.h"
#include "common/flop_counts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/row_lengths.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct LayerNormProblem : Param<LayerNormProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape;
  bool has_bias = true;
  bool junk_bias_pointer = false;  // without bias, compute still gets a pointer (to NaN)
  LayoutKind out_layout = LayoutKind::kContiguous, in_layout = LayoutKind::kContiguous,
             std_layout = LayoutKind::kContiguous;
  double eps = 1e-5;
  bool small_variance = true;

  double PassedEps() const { return static_cast<double>(static_cast<float>(eps)); }
  Shape RowShape() const { return Shape(shape.begin(), shape.end() - 1); }

  std::string Name() const {
    const char *bias = has_bias ? "__bias" : junk_bias_pointer ? "__no_bias_junk_pointer" : "__no_bias";
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"out", out_layout}, {"in", in_layout}, {"std", std_layout}}) + bias + "__eps_" +
           NumberName(eps) + (small_variance ? "_small_var" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("bias", has_bias);
    field("junk_bias", junk_bias_pointer);
    field("output", out_layout);  // output and input_standardization
    field("input", in_layout);
    field("std_deviation", std_layout);
    field("eps", eps);
    field("small_var", small_variance);
  }
};

struct LayerNormOp {
  using Problem = LayerNormProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "layer_norm";
  static constexpr const char *kTensorRoles =
      "output[rows,d]=input input_standardization[rows,d]=input input_std_deviation[rows]=input "
      "input[rows,d] weight[d]=input bias[d]=input";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const Shape row = {p.shape.back()};
    std::vector<TensorSpec> specs = {
        {"output", Role::kOutput, p.dtype, MakeLayout(p.out_layout, p.shape)},
        {"input_standardization", Role::kOutput, p.dtype, MakeLayout(p.out_layout, p.shape)},
        {"input_std_deviation", Role::kOutput, p.dtype, MakeLayout(p.std_layout, p.RowShape())},
        {"input", Role::kInput, p.dtype, MakeLayout(p.in_layout, p.shape)},
        {"weight", Role::kInput, p.dtype, ContiguousLayout(row)},
        {"bias", Role::kInput, p.dtype, ContiguousLayout(row)}};
    specs[5].present = p.has_bias;
    specs[5].optional = true;
    specs[5].junk_pointer = p.junk_bias_pointer;
    return specs;
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::LayerNorm>(std::make_tuple(static_cast<float>(p.eps)));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    if (p.small_variance) {
      FillSmallVarianceRows(t[3], rng, p.PassedEps());
    } else {
      FillAwayFromZero(t[3], rng, 0.25, 2.0);
      ScaleRows(t[3], rng, 0.5, 2.0);  // rows of distinct standard deviations
    }
    FillAwayFromZero(t[4], rng, 0.5, 1.5);
    if (p.has_bias) FillAwayFromZero(t[5], rng, 0.25, 1.0);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::LayerNormResult r = oracle::LayerNorm(t[3], t[4], p.has_bias ? &t[5] : nullptr, p.PassedEps());
    return {std::move(r.output), std::move(r.standardization), std::move(r.std_deviation)};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape)); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape shape, bool has_bias = true) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.has_bias = has_bias;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 5}));
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("weight_f16_among_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[4].dtype = INFINI_DTYPE_F16; });
    bad.Add("std_deviation_f64_among_f32", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) { s[2].dtype = INFINI_DTYPE_F64; });
    bad.Add("weight_length_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {4}); });
    bad.Add("bias_length_6", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[5], {6}); });
    bad.Add("std_deviation_full_shape", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {4, 5}); });
    bad.Add("standardization_4x6", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 6}); });
    bad.Add("std_deviation_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES, [](Specs &s) { s[2].layout.strides = {0}; });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[4].dtype = INFINI_DTYPE_F16;
              Reshape(s[5], {6});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[5], {6});
              s[0].layout.strides = {0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  // output = input, or input_standardization = input.
  static std::vector<AliasPair> InPlacePairs() { return {{0, 3}, {1, 3}}; }

  static OpClauses Clauses() {
    return {{"OP-LAYERNORM-3", "OP-LAYERNORM-4"}, {"OP-LAYERNORM-1"}, {"OP-LAYERNORM-2"}, {}, {}};
  }
};

INFINICTS_OP_CASES(LayerNormOp);
INFINICTS_OP_WORKSPACE_CASES(LayerNormOp);

// Perf: a LayerNorm with bias at the model's width (as GPT-style models place it where
// Llama has RMSNorm), over [tokens, hidden], eps 1e-5, with its three outputs (output,
// input_standardization, input_std_deviation). Rows of variance near epsilon as in the
// accuracy cases; every output is checked whole.
struct LayerNormWorkload {
  using Op = LayerNormOp;
  static std::vector<std::string> MathClauses() { return {"OP-LAYERNORM-3", "OP-LAYERNORM-4"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("layer_norm", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes());
  }
  static LayerNormProblem At(const PerfProblem &p) { return LayerNormOp::Make(p.dtype, TokenRowShape(p)); }
};
using LayerNormPerf = OpPerf<LayerNormWorkload>;
INFINICTS_OP_PERF_CASES(LayerNormPerf);

}  // namespace
}  // namespace infinicts::op_cases
