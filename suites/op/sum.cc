// Sum: input summed over a list of dims, keepdim leaving them as dims of 1 (spec section OP-SUM).
//
// Data: sums of up to a few hundred terms take dyadic values k/4 of both signs (|k| <= 8); the
// long ones (1024 terms and more) small positive integers (1 to 4), whose exact sums F32 holds
// but F16 and BF16 do not past 2048 and 256: an accumulator kept in the storage dtype drifts,
// one in F32 or wider rounds once. Dims are listed in and out of order, one, several or all
// (a 0-D output); input and output run transposed, padded, as views and walked backwards.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

// Reductions of at least this many terms get positive integers (see above).
constexpr size_t kLongSum = 1024;

struct SumProblem : Param<SumProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape = {4, 6};
  Shape dims = {1};  // the dims summed over, in the order the call lists them
  bool keepdim = false;
  LayoutKind output_layout = LayoutKind::kContiguous, input_layout = LayoutKind::kContiguous;

  // The output's shape; dims out of range or repeated (a bad descriptor's) are skipped.
  Shape OutputShape() const {
    std::vector<bool> reduced(shape.size(), false);
    for (size_t d : dims) {
      if (d < shape.size()) reduced[d] = true;
    }
    Shape out;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (!reduced[d]) out.push_back(shape[d]);
      else if (keepdim) out.push_back(1);
    }
    return out;
  }
  size_t Terms() const { return NumElements(shape) / std::max<size_t>(1, NumElements(OutputShape())); }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__dims_" + ShapeName(dims) +
           (keepdim ? "_keepdim" : "") + "__" + LayoutsName({{"output", output_layout}, {"input", input_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("dims", dims);
    field("keepdim", keepdim);
    field("output", output_layout);
    field("input", input_layout);
  }
};

struct SumOp {
  using Problem = SumProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "sum";
  // The probe problem's [4, 6] summed over dim 1 into [4].
  static constexpr const char *kTensorRoles = "output[a]=input input[a,~b]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"output", Role::kOutput, p.dtype, MakeLayout(p.output_layout, p.OutputShape())},
            {"input", Role::kInput, p.dtype, MakeLayout(p.input_layout, p.shape)}};
  }

  static OpCalls Calls(const Problem &p) {
    const std::vector<size_t> dims(p.dims.begin(), p.dims.end());
    const auto arguments = std::make_tuple(AttributeArray<size_t>(dims), dims.size(), p.keepdim);
    return OperatorCalls<api::Sum>(arguments, arguments);
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    if (p.Terms() >= kLongSum) {
      FillDyadic(t[1], rng, 1, 4);
    } else {
      FillDyadic(t[1], rng, -8, 8, 2);
    }
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {oracle::Sum(t[1], std::vector<size_t>(p.dims.begin(), p.dims.end()), p.keepdim)};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape)); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape shape, Shape dims, bool keepdim) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.dims = std::move(dims);
    p.keepdim = keepdim;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 6}, {1}, false); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 6}, {1}, false));
    bad.Add("output_kept_dim_as_one_without_keepdim", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) { Reshape(s[0], {4, 1}); });
    bad.Add("output_of_the_summed_dim", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {6}); });
    bad.AddFor(Make(INFINI_DTYPE_F32, {4, 6}, {1}, true), "keepdim_output_without_the_dim",
               INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4}); });
    bad.AddRecommendedFor(Make(INFINI_DTYPE_F32, {4, 6}, {1, 1}, false), "dim_listed_twice", INFINI_STATUS_BAD_PARAM);
    bad.AddRecommendedFor(Make(INFINI_DTYPE_F32, {4, 6}, {2}, false), "dim_beyond_ndim", INFINI_STATUS_BAD_PARAM,
                          [](Specs &s) { Reshape(s[0], {4}); });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-SUM-3"}, {"OP-SUM-1"}, {"OP-SUM-2"}, {}, {}, {"OP-SUM-4"}}; }
};

INFINICTS_OP_CASES(SumOp);
INFINICTS_OP_WORKSPACE_CASES(SumOp);

// Perf: Qwen3-30B-A3B's combine of its top-8 experts' outputs, [tokens, 8, 2048] summed over the
// experts (the k MoeSum's InfiniCore kernel refuses), at the cheap operators' token counts.
struct SumWorkload {
  using Op = SumOp;
  static std::vector<std::string> MathClauses() { return {"OP-SUM-3"}; }
  static std::vector<PerfProblem> Problems() {
    return NamedModelProblems("moe_combine", PerfWeight::kCheap, HalfAndSingleDtypes(),
                              {{"qwen3_30b_a3b", {{"topk", 8}, {"hidden", 2048}}}});
  }
  static SumOp::Problem At(const PerfProblem &p) {
    return SumOp::Make(p.dtype, {p.Dim("tokens"), p.Dim("topk"), p.Dim("hidden")}, {1}, false);
  }
};
using SumPerf = OpPerf<SumWorkload>;
INFINICTS_OP_PERF_CASES(SumPerf);

}  // namespace
}  // namespace infinicts::op_cases
