// Embedding: output[i..., :] = weight[input[i...], :], with integer indices of any shape
// (0-D included) and a (vocab, dim) weight; no workspace functions (spec section
// OP-EMBEDDING).
//
// Data: indices drawn across the whole vocabulary (repeats included) and a weight away from
// zero, so every gathered row differs from its neighbours; the weight also runs transposed
// and padded, the indices strided, the output as a view.
#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct EmbeddingProblem : Param<EmbeddingProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // weight and output
  infiniDtype_t index_dtype = INFINI_DTYPE_I64;
  Shape indices;
  size_t vocab = 1, dim = 1;
  LayoutKind output_layout = LayoutKind::kContiguous, input_layout = LayoutKind::kContiguous,
             weight_layout = LayoutKind::kContiguous;

  Shape OutputShape() const {
    Shape shape = indices;
    shape.push_back(dim);
    return shape;
  }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_index_" + DtypeName(index_dtype) + "__indices_" + ShapeName(indices) +
           "_vocab" + std::to_string(vocab) + "_dim" + std::to_string(dim) + "__" +
           LayoutsName({{"output", output_layout}, {"input", input_layout}, {"weight", weight_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", indices);  // the indices' shape; 0-D reads "none"
    field("index", index_dtype);
    field("vocab", vocab);
    field("dim", dim);
    field("output", output_layout);
    field("input", input_layout);
    field("weight", weight_layout);
  }
};

struct EmbeddingOp {
  using Problem = EmbeddingProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "embedding";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"output", Role::kOutput, p.dtype, MakeLayout(p.output_layout, p.OutputShape())},
            {"input", Role::kInput, p.index_dtype, MakeLayout(p.input_layout, p.indices)},
            {"weight", Role::kInput, p.dtype, MakeLayout(p.weight_layout, {p.vocab, p.dim})}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::Embedding>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillIntegers(t[1], rng, 0, static_cast<int64_t>(p.vocab));
    FillAwayFromZero(t[2], rng, 0.25, 4.0);
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::Embedding(t[1], t[2])};
  }

  static double Flops(const Problem &) { return FlopsPerElement(kSubject); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t index_dtype, Shape indices, size_t vocab, size_t dim) {
    Problem p;
    p.dtype = dtype;
    p.index_dtype = index_dtype;
    p.indices = std::move(indices);
    p.vocab = vocab;
    p.dim = dim;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, INFINI_DTYPE_I64, {3, 4}, 11, 6); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, INFINI_DTYPE_I64, {3, 4}, 11, 6));
    bad.Add("input_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_F32; });
    bad.Add("input_i16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_I16; });
    bad.Add("weight_and_output_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      s[0].dtype = INFINI_DTYPE_I32;
      s[2].dtype = INFINI_DTYPE_I32;
    });
    bad.Add("output_f16_weight_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_F16; });
    bad.Add("weight_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {66}); });
    bad.Add("output_dim_wrong", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {3, 4, 7}); });
    bad.Add("output_without_index_dims", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {12, 6}); });
    bad.Add("output_rows_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
            [](Specs &s) { s[0].layout.strides = {24, 0, 1}; });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[1].dtype = INFINI_DTYPE_F32;
              Reshape(s[0], {3, 4, 7});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[2], {66});
              s[0].layout.strides = {24, 0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-EMBEDDING-3"}, {"OP-EMBEDDING-1"}, {"OP-EMBEDDING-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(EmbeddingOp);

}  // namespace
}  // namespace infinicts::op_cases
