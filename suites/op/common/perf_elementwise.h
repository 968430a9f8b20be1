// The perf cases of an elementwise operator, built from its conformance traits (calls,
// tensor names, fill, oracle; common/elementwise.h) and what perf adds: the LLM tensor it
// stands for; the flops per element are the traits' kFlopsPerElement (common/flop_counts.h),
// the count conformance records too. In the operator's file:
//
//   struct ReluPerfShape {
//     static constexpr const char *kPart = "ffn_act";
//     static constexpr RowWidth kWidth = RowWidth::kIntermediate;
//   };
//   using ReluPerf = ElementwisePerf<ReluTraits, ReluPerfShape>;
//   INFINICTS_OP_PERF_CASES(ReluPerf);
#pragma once

#include "common/perf_case.h"

namespace infinicts::op_cases {

template <class Traits, class Shape>
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
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(Traits::kFlopsPerElement, NumElements(TokenRowShape(p)), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) { return std::vector<HostTensor>{Traits::Oracle(t)}; };
    return check;
  }
};

}  // namespace infinicts::op_cases
