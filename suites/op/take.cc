// Take: output[i…] = the element of input numbered indices[i…] in input's row-major order (its
// logical order, whatever its strides), indices I32 or I64 of any shape, output of indices'
// shape (spec section OP-TAKE).
//
// Data: indices drawn over the whole input (repeats included), the first two the last element
// and the first; input values away from zero, each distinct from its neighbours, so reading
// the k-th stored element instead of the k-th in row-major order, or a neighbour, shows. The
// input runs transposed, padded, as an offset view and walked backwards, the indices strided,
// the output as a view.
#include <string>
#include <utility>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/perf_cost.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

// Inputs past this many elements are filled only where the indices read (a perf case's
// logits), the rest NaN, which no wrong read escapes either.
constexpr size_t kWholeFillElements = size_t(1) << 20;

struct TakeProblem : Param<TakeProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // input and output
  infiniDtype_t index_dtype = INFINI_DTYPE_I64;
  Shape input = {4, 6}, indices = {5};
  LayoutKind output_layout = LayoutKind::kContiguous, input_layout = LayoutKind::kContiguous,
             indices_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_index_" + DtypeName(index_dtype) + "__input_" + ShapeName(input) +
           "_indices_" + ShapeName(indices) + "__" +
           LayoutsName({{"output", output_layout}, {"input", input_layout}, {"indices", indices_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("index", index_dtype);
    field("input", input);
    field("indices", indices);  // 0-D reads "none"
    field("output", output_layout);
    field("input_layout", input_layout);
    field("indices_layout", indices_layout);
  }
};

struct TakeOp {
  using Problem = TakeProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "take";
  static constexpr const char *kTensorRoles = "output[n]=input input[~a,~b] indices[n]:int";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"output", Role::kOutput, p.dtype, MakeLayout(p.output_layout, p.indices)},
            {"input", Role::kInput, p.dtype, MakeLayout(p.input_layout, p.input)},
            {"indices", Role::kInput, p.index_dtype, MakeLayout(p.indices_layout, p.indices)}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::Take>(); }

  static void Fill(const Problem &, std::vector<HostTensor> &t, Rng &rng) {
    HostTensor &input = t[1], &indices = t[2];
    const size_t count = input.numel();
    FillIntegers(indices, rng, 0, static_cast<int64_t>(count));
    // The ends of the row-major order, where an off-by-one or a storage order shows first.
    if (indices.numel() >= 1) indices.SetAt(0, static_cast<double>(count - 1));
    if (indices.numel() >= 2) indices.SetAt(1, 0.0);
    if (count <= kWholeFillElements) {
      FillAwayFromZero(input, rng, 0.25, 4.0);
      return;
    }
    input.FillStorage(NAN);
    HostTensor value(input.dtype(), Shape{1});
    for (size_t i = 0; i < indices.numel(); ++i) {
      FillAwayFromZero(value, rng, 0.25, 4.0);
      input.SetAt(static_cast<size_t>(indices.GetAt(i)), value.GetAt(0));
    }
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::Take(t[1], t[2])};
  }

  static double Flops(const Problem &) { return FlopsPerElement(kSubject); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t index_dtype, Shape input, Shape indices) {
    Problem p;
    p.dtype = dtype;
    p.index_dtype = index_dtype;
    p.input = std::move(input);
    p.indices = std::move(indices);
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, INFINI_DTYPE_I64, {4, 6}, {5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, INFINI_DTYPE_I64, {4, 6}, {5}));
    bad.Add("indices_i16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_I16; });
    bad.Add("output_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {5, 1}); });
    bad.Add("output_of_input_shape", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 6}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[2].dtype = INFINI_DTYPE_F32;
              Reshape(s[0], {6});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-TAKE-3"}, {"OP-TAKE-1"}, {"OP-TAKE-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(TakeOp);
INFINICTS_OP_WORKSPACE_CASES(TakeOp);

// Perf: Llama-3-8B's log-probabilities of the sampled tokens, one flat index per token into the
// logits [tokens, 128256] (drawn over all of them); every profile's F32, F16 and BF16 in the full one,
// at 1 and 16 tokens (512 in the full profile: its logits are 256 MB). Costed as the indices
// read and the elements gathered, read and written.
struct TakeWorkload {
  using Op = TakeOp;
  static std::vector<std::string> MathClauses() { return {"OP-TAKE-3"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems;
    for (size_t tokens : PerfTokens(PerfWeight::kHeavy)) {
      if (tokens > 512) continue;  // 2 GB of logits
      for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
        PerfProblem p;
        p.dtype = dtype;
        p.model = kLlama3_8B.name;
        p.part = "sampled_logprobs";
        p.tokens = tokens;
        p.dims = {{"tokens", tokens}, {"vocab", kLlama3_8B.vocab}};
        problems.push_back(p);
      }
    }
    return problems;
  }
  static TakeOp::Problem At(const PerfProblem &p) {
    return TakeOp::Make(p.dtype, INFINI_DTYPE_I64, {p.Dim("tokens"), p.Dim("vocab")}, {p.Dim("tokens")});
  }
  static PerfCost Cost(const TakeOp::Problem &p, const std::vector<TensorSpec> &) {
    return EmbeddingCost(NumElements(p.indices), 1, p.dtype, p.index_dtype);
  }
};
using TakePerf = OpPerf<TakeWorkload>;
INFINICTS_OP_PERF_CASES(TakePerf);

}  // namespace
}  // namespace infinicts::op_cases
