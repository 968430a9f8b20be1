// The perf cases of an operator built from its own traits (common/op_case.h): the tensors,
// calls, fill, flops and oracle are those its conformance and accuracy cases use, and a
// small workload struct adds only what perf has of its own: the model problems it times
// (common/perf_problem.h), the operator's problem at each, and the clauses its output
// check stands for. In the operator's file, beside its traits:
//
//   struct RmsNormWorkload {
//     using Op = RmsNormOp;
//     static std::vector<std::string> MathClauses();             // what the output check checks
//     static std::vector<PerfProblem> Problems();                // [tokens, hidden] of each model
//     static RmsNormOp::Problem At(const PerfProblem &);          // contiguous tensors
//   };
//   using RmsNormPerf = OpPerf<RmsNormWorkload>;
//   INFINICTS_OP_PERF_CASES(RmsNormPerf);
//
// By default the whole output is checked against the operator's oracle and the cost is its
// flops and every tensor's bytes once (common/perf_cost.h). A workload may replace either:
//   static PerfElement Element(const Op::Problem &);   // the oracle of one output element,
//                                                      // for an oracle too slow whole (Gemm);
//                                                      // empty where the whole is cheap enough
//   static constexpr bool kWholeWhileSmall = true;     // with Element: the whole output while
//                                                      // it is small (common/perf_check.h)
//   static PerfCost Cost(const Op::Problem &, const std::vector<TensorSpec> &);
//                                                      // where an ideal kernel touches less
//                                                      // than every element (a gathered table)
#pragma once

#include <type_traits>

#include "common/perf_case.h"

namespace infinicts::op_cases {

using PerfElement = decltype(PerfCheck::element);

template <class Workload, class = void>
struct HasElementCheck : std::false_type {};
template <class Workload>
struct HasElementCheck<Workload, std::void_t<decltype(Workload::Element(std::declval<const typename Workload::Op::Problem &>()))>>
    : std::true_type {};

template <class Workload, class = void>
struct ChecksWholeWhileSmall : std::false_type {};
template <class Workload>
struct ChecksWholeWhileSmall<Workload, std::void_t<decltype(Workload::kWholeWhileSmall)>>
    : std::bool_constant<Workload::kWholeWhileSmall> {};

template <class Workload, class = void>
struct HasOwnCost : std::false_type {};
template <class Workload>
struct HasOwnCost<Workload, std::void_t<decltype(Workload::Cost(std::declval<const typename Workload::Op::Problem &>(),
                                                                std::declval<const std::vector<TensorSpec> &>()))>>
    : std::true_type {};

template <class Workload>
struct OpPerf {
  using Op = typename Workload::Op;
  static constexpr const char *kSubject = Op::kSubject;
  static std::vector<std::string> MathClauses() { return Workload::MathClauses(); }
  static std::vector<PerfProblem> Problems() { return Workload::Problems(); }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) { return Op::Specs(Workload::At(p)); }
  static OpCalls Calls(const PerfProblem &p) { return Op::Calls(Workload::At(p)); }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) { Op::Fill(Workload::At(p), t, rng); }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    if constexpr (HasOwnCost<Workload>::value) {
      return Workload::Cost(Workload::At(p), specs);
    } else {
      return {Op::Flops(Workload::At(p)), TensorBytes(specs)};
    }
  }
  static PerfCheck Check(const PerfProblem &p) {
    PerfCheck check;
    const auto problem = Workload::At(p);
    if constexpr (HasElementCheck<Workload>::value) {
      check.element = Workload::Element(problem);
      if (check.element && !ChecksWholeWhileSmall<Workload>::value) return check;
    }
    check.full = [problem](const std::vector<HostTensor> &t) { return Op::Expected(problem, t); };
    return check;
  }
};

}  // namespace infinicts::op_cases
