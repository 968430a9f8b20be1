// TopK: torch.topk along one dim, values and their positions (spec section OP-TOPK).
//
// Data: in every line the k + 1 first-ranked elements are distinct (steps of 0.5 down from the
// line's own top in [32, 63.5], exact in every dtype) at random positions, the rest drawn below them (ties among those allowed:
// they never decide), so the selection is exact and a wrong line, a position off by one, an
// order reversed or a missing element shows. Smallest-first lines are the same negated. Lines
// run along the last dim and an inner one, values and indices in layouts unlike each other
// (InfiniCore's CPU kernel writes indices through the values' strides); unsorted results are
// compared as sets of (value, position) pairs.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
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

constexpr double kLowestTop = 32.0, kRankStep = 0.5;  // k up to 60 stays above 0

struct TopKProblem : Param<TopKProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  infiniDtype_t index_dtype = INFINI_DTYPE_I32;
  Shape shape = {4, 16};
  size_t k = 3, dim = 1;
  bool largest = true, sorted = true;
  LayoutKind values_layout = LayoutKind::kContiguous, indices_layout = LayoutKind::kContiguous,
             input_layout = LayoutKind::kContiguous;

  Shape OutputShape() const {
    Shape out = shape;
    if (dim < out.size()) out[dim] = k;
    return out;
  }
  // The lines: outer · inner of them, `extent` long, inner apart in row-major order.
  size_t Outer() const {
    size_t n = 1;
    for (size_t d = 0; d < dim && d < shape.size(); ++d) n *= shape[d];
    return n;
  }
  size_t Inner() const {
    size_t n = 1;
    for (size_t d = dim + 1; d < shape.size(); ++d) n *= shape[d];
    return n;
  }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_index_" + DtypeName(index_dtype) + "__" + ShapeName(shape) + "__k_" +
           std::to_string(k) + "_dim_" + std::to_string(dim) + (largest ? "_largest" : "_smallest") +
           (sorted ? "_sorted" : "_unsorted") + "__" +
           LayoutsName({{"values", values_layout}, {"indices", indices_layout}, {"input", input_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("index", index_dtype);
    field("k", k);
    field("dim", dim);
    field("largest", largest);
    field("sorted", sorted);
    field("values", values_layout);
    field("indices", indices_layout);
    field("input", input_layout);
  }
};

// Line l's element j of a tensor of the lines' shape: its row-major position.
size_t LinePosition(const TopKProblem &p, size_t line, size_t j, size_t extent) {
  const size_t inner = p.Inner();
  return ((line / inner) * extent + j) * inner + line % inner;
}

void FillRankedLines(const TopKProblem &p, HostTensor &input, Rng &rng) {
  const size_t extent = p.shape[p.dim], lines = p.Outer() * p.Inner();
  const size_t ranked = std::min(extent, p.k + 1);
  std::vector<size_t> order(extent);
  std::uniform_int_distribution<int> top_steps(0, 63);
  const double sign = p.largest ? 1.0 : -1.0;
  for (size_t line = 0; line < lines; ++line) {
    std::iota(order.begin(), order.end(), size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    // Each line's own first value, in [32, 63.5], so lines differ in their values too.
    const double top = kLowestTop + kRankStep * top_steps(rng);
    const double bound = top - kRankStep * static_cast<double>(ranked);
    std::uniform_real_distribution<double> below(-kLowestTop, bound);
    for (size_t r = 0; r < extent; ++r) {
      // Ranked values exact in every dtype; the rest on a grid of 1/8 below them (a BF16 rounding
      // moves them by 1/8 at most, still below the last ranked value, 1/2 above `bound`).
      const double value = r < ranked ? top - kRankStep * static_cast<double>(r) : std::floor(below(rng) * 8) / 8;
      input.SetAt(LinePosition(p, line, order[r], extent), sign * value);
    }
  }
}

struct TopKOp {
  using Problem = TopKProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "topk";
  // The probe problem's [4, 16] ranked along dim 1, k = 3.
  static constexpr const char *kTensorRoles = "values_output[a,k]=input indices_output[a,k]:int input[a,~n]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"values_output", Role::kOutput, p.dtype, MakeLayout(p.values_layout, p.OutputShape())},
            {"indices_output", Role::kOutput, p.index_dtype, MakeLayout(p.indices_layout, p.OutputShape())},
            {"input", Role::kInput, p.dtype, MakeLayout(p.input_layout, p.shape)}};
  }

  static OpCalls Calls(const Problem &p) {
    const auto arguments = std::make_tuple(p.k, p.dim, p.largest, p.sorted);
    return OperatorCalls<api::TopK>(arguments, arguments);
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) { FillRankedLines(p, t[2], rng); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::TopKResult expected = oracle::TopK(t[2], p.k, p.dim, p.largest);
    return {std::move(expected.values), std::move(expected.indices)};
  }

  // Unsorted: where a line's positions are the expected ones in another order, the expected
  // line is put in that order (values beside their positions).
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &,
                                            const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got) {
    if (p.sorted || got.size() < 2 || got[1].numel() != expected[1].numel()) return expected;
    std::vector<HostTensor> settled = {expected[0].Contiguous(), expected[1].Contiguous()};
    const size_t lines = p.Outer() * p.Inner();
    for (size_t line = 0; line < lines; ++line) {
      std::vector<std::pair<double, double>> want;  // (position, value)
      std::vector<double> order;
      for (size_t j = 0; j < p.k; ++j) {
        const size_t at = LinePosition(p, line, j, p.k);
        want.push_back({expected[1].GetAt(at), expected[0].GetAt(at)});
        order.push_back(got[1].GetAt(at));
      }
      std::vector<double> sorted_want, sorted_got = order;
      for (const auto &pair : want) sorted_want.push_back(pair.first);
      std::sort(sorted_want.begin(), sorted_want.end());
      std::sort(sorted_got.begin(), sorted_got.end());
      if (sorted_want != sorted_got) continue;  // not a reordering: compared as expected
      for (size_t j = 0; j < p.k; ++j) {
        const auto match = std::find_if(want.begin(), want.end(), [&](const auto &w) { return w.first == order[j]; });
        const size_t at = LinePosition(p, line, j, p.k);
        settled[1].SetAt(at, match->first);
        settled[0].SetAt(at, match->second);
      }
    }
    return settled;
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape)); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape shape, size_t k, size_t dim, bool largest = true, bool sorted = true) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.k = k;
    p.dim = dim;
    p.largest = largest;
    p.sorted = sorted;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 16}, 3, 1); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 16}, 3, 1));
    bad.Add("indices_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_F32; });
    bad.Add("outputs_of_input_shape", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {4, 16});
      Reshape(s[1], {4, 16});
    });
    bad.Add("outputs_k_along_the_other_dim", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {3, 16});
      Reshape(s[1], {3, 16});
    });
    bad.AddRecommendedFor(Make(INFINI_DTYPE_F32, {4, 16}, 0, 1), "k_0", INFINI_STATUS_BAD_PARAM);
    bad.AddRecommendedFor(Make(INFINI_DTYPE_F32, {4, 16}, 17, 1), "k_beyond_the_extent", INFINI_STATUS_BAD_PARAM);
    bad.AddRecommendedFor(Make(INFINI_DTYPE_F32, {4, 16}, 3, 2), "dim_beyond_ndim", INFINI_STATUS_BAD_PARAM,
                          [](Specs &s) {
                            Reshape(s[0], {4, 16});
                            Reshape(s[1], {4, 16});
                          });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-TOPK-3"}, {"OP-TOPK-1"}, {"OP-TOPK-2"}, {}, {}, {"OP-TOPK-4"}}; }
};

INFINICTS_OP_CASES(TopKOp);
INFINICTS_OP_WORKSPACE_CASES(TopKOp);

// Perf: the sampler's top-50 over Llama-3-8B's logits [tokens, 128256], sorted, at 1 and 16 tokens
// (full: 512 too), F32 (full: F16 and BF16 too).
struct TopKWorkload {
  using Op = TopKOp;
  static std::vector<std::string> MathClauses() { return {"OP-TOPK-3"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems;
    for (const PerfProblem &p : TokenRowProblems("sampler_top50", RowWidth::kVocab, PerfWeight::kHeavy,
                                                 HalfAndSingleDtypes(), {kLlama3_8B})) {
      if (p.tokens <= 512) problems.push_back(p);
    }
    return problems;
  }
  static TopKOp::Problem At(const PerfProblem &p) { return TopKOp::Make(p.dtype, TokenRowShape(p), 50, 1); }
};
using TopKPerf = OpPerf<TopKWorkload>;
INFINICTS_OP_PERF_CASES(TopKPerf);

}  // namespace
}  // namespace infinicts::op_cases
