// The perf cases of an elementwise operator, built from its conformance traits (calls,
// tensor names, fill, oracle; common/elementwise.h) and what perf adds: the LLM tensor it
// stands for; the flops per element are the subject's row of the spec's flop table (common/flop_counts.h),
// the count conformance records too. In the operator's file:
//
//   using ReluPerf = ElementwisePerf<ReluTraits>;  // [tokens, intermediate], FfnActivationRows
//   INFINICTS_OP_PERF_CASES(ReluPerf);
//
// or, for another tensor of the layer, a Shape with kPart and kWidth as second argument.
#pragma once

#include "common/perf_case.h"

namespace infinicts::op_cases {

// The activation tensor of a Llama layer's FFN, [tokens, intermediate]: where the
// activations run.
struct FfnActivationRows {
  static constexpr const char *kPart = "ffn_act";
  static constexpr RowWidth kWidth = RowWidth::kIntermediate;
};

template <class Traits, class Shape = FfnActivationRows>
struct ElementwisePerf {
  static constexpr const char *kSubject = Traits::kSubject;
  static std::vector<std::string> MathClauses() { return Traits::MathClauses(); }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems(Shape::kPart, Shape::kWidth, PerfWeight::kCheap, HalfAndSingleDtypes());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    return SameShapeSpecs(p, Traits::Names(), TokenRowShape(p));
  }
  static OpCalls Calls(const PerfProblem &) { return Traits::Calls(); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) { Traits::Fill(t, rng); }
  static constexpr bool kConstantOutput = ConstantOutput<Traits>::value;
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    // A fill reads nothing: only its output's bytes move.
    const std::vector<TensorSpec> moved = kConstantOutput ? std::vector<TensorSpec>{specs.front()} : specs;
    return PerElementCost(FlopsPerElement(Traits::kSubject), NumElements(TokenRowShape(p)), moved);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) { return std::vector<HostTensor>{Traits::Oracle(t)}; };
    return check;
  }
};

}  // namespace infinicts::op_cases
