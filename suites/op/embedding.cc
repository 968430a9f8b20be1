// Embedding: output[i..., :] = weight[input[i...], :], with integer indices of any shape
// (0-D included) and a (vocab, dim) weight; no workspace functions (spec section
// OP-EMBEDDING).
//
// Data: indices drawn across the whole vocabulary (repeats included); the rows they name
// away from zero and every other row left at the unwritten sentinel (NaN), so a gather of a
// wrong row shows; the weight also runs transposed and padded, the indices strided, the
// output as a view.
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
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

// The storage position of weight[row, column], whatever the weight's layout (Get's index
// vector would cost more than the copy on a perf case's rows).
size_t WeightElement(const HostTensor &weight, int64_t row, size_t column) {
  return static_cast<size_t>(weight.offset() + static_cast<ptrdiff_t>(row) * weight.strides()[0] +
                             static_cast<ptrdiff_t>(column) * weight.strides()[1]);
}

struct EmbeddingOp {
  using Problem = EmbeddingProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "embedding";
  static constexpr const char *kTensorRoles =
      "output[index0,index1,dim]=weight input[index0,index1]:int weight[~vocab,dim]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"output", Role::kOutput, p.dtype, MakeLayout(p.output_layout, p.OutputShape())},
            {"input", Role::kInput, p.index_dtype, MakeLayout(p.input_layout, p.indices)},
            {"weight", Role::kInput, p.dtype, MakeLayout(p.weight_layout, {p.vocab, p.dim})}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::Embedding>(); }

  // Only the rows the indices name are filled: a perf case's table (32000 rows and more)
  // would cost more to fill whole than the case.
  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillIntegers(t[1], rng, 0, static_cast<int64_t>(p.vocab));
    HostTensor row(t[2].dtype(), Shape{p.dim});
    std::set<int64_t> filled;
    for (size_t i = 0; i < t[1].numel(); ++i) {
      const int64_t index = t[1].GetInt(UnravelIndex(i, t[1].shape()));
      if (!filled.insert(index).second) continue;
      FillAwayFromZero(row, rng, 0.25, 4.0);
      for (size_t j = 0; j < p.dim; ++j) t[2].SetStorageElement(WeightElement(t[2], index, j), row.GetAt(j));
    }
  }

  // The oracle gathers from the rows the indices name, packed into a small table: a perf
  // case's whole vocabulary table (32000 rows and more) converted to fp64 would cost more
  // than the case.
  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    const HostTensor &indices = t[1], &weight = t[2];
    std::map<int64_t, size_t> slot_of;  // a named row's place in the packed table
    HostTensor slots(INFINI_DTYPE_I64, indices.shape());
    for (size_t i = 0; i < indices.numel(); ++i) {
      const std::vector<size_t> at = UnravelIndex(i, indices.shape());
      const int64_t index = indices.GetInt(at);
      if (index < 0 || static_cast<size_t>(index) >= p.vocab) {
        throw std::out_of_range("Embedding: index " + std::to_string(index) + " outside the vocabulary");
      }
      slots.SetInt(at, static_cast<int64_t>(slot_of.emplace(index, slot_of.size()).first->second));
    }
    HostTensor rows(weight.dtype(), Shape{slot_of.size(), p.dim});
    for (const auto &[index, slot] : slot_of) {
      for (size_t j = 0; j < p.dim; ++j) {
        rows.SetStorageElement(slot * p.dim + j, weight.GetStorageElement(WeightElement(weight, index, j)));
      }
    }
    return {oracle::Embedding(slots, rows)};
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
    bad.Add("input_i16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_I16; });
    bad.Add("weight_and_output_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      s[0].dtype = INFINI_DTYPE_I32;
      s[2].dtype = INFINI_DTYPE_I32;
    });
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

// Perf: the token embedding, output [tokens, hidden] = weight[input] with I64 indices drawn
// across the vocabulary and weight [vocab, hidden] (32000 rows for Llama-2). Only the rows
// the indices name hold values (away from zero); every other row keeps the NaN sentinel, so
// a gather of a wrong row shows. The whole output is checked (bit for bit). Costed as the
// indices read and the rows gathered, read and written (the rest of the table is never
// touched); no flops.
struct EmbeddingWorkload {
  using Op = EmbeddingOp;
  static std::vector<std::string> MathClauses() { return {"OP-EMBEDDING-3"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kHeavy, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      return PartDims{{"token_embedding", {{"tokens", tokens}, {"vocab", l.vocab}, {"hidden", l.hidden}}}};
    });
  }
  static EmbeddingOp::Problem At(const PerfProblem &p) {
    return EmbeddingOp::Make(p.dtype, INFINI_DTYPE_I64, {p.Dim("tokens")}, p.Dim("vocab"), p.Dim("hidden"));
  }
  static PerfCost Cost(const EmbeddingOp::Problem &p, const std::vector<TensorSpec> &) {
    return EmbeddingCost(NumElements(p.indices), p.dim, p.dtype, p.index_dtype);
  }
};
using EmbeddingPerf = OpPerf<EmbeddingWorkload>;
INFINICTS_OP_PERF_CASES(EmbeddingPerf);

}  // namespace
}  // namespace infinicts::op_cases
