// What the elementwise operators share (Add, Sub, Mul, SwiGLU, Relu, Silu, Gelu, Sigmoid,
// Clip): one output and inputs of the output's shape, one dtype, any layout (an input may
// broadcast through stride 0). An operator file gives a Traits struct:
//
//   struct AddTraits {
//     static constexpr const char *kSubject = "add";
//     static std::vector<std::string> Names();                 // output first: {"c", "a", "b"}
//     static OpCalls Calls();
//     static void Fill(std::vector<HostTensor> &tensors, Rng &rng);   // the inputs (tensors[1..])
//     static HostTensor Oracle(const std::vector<HostTensor> &tensors);
//     static std::vector<std::string> MathClauses();
//   };
//   using AddOp = ElementwiseOp<AddTraits>;
#pragma once

#include <string>
#include <vector>

#include "common/layouts.h"
#include "common/op_case.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {

struct ElementwiseProblem : Param<ElementwiseProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape;
  std::vector<std::string> names;    // output first, then the inputs
  std::vector<LayoutKind> layouts;   // one per tensor

  std::string Name() const;
  std::string Json() const;
};

// The layout sets the accuracy cases run, for one output and `inputs` inputs; `bound_inputs`
// adds the set whose trailing inputs broadcast a single element (Clip's bounds).
std::vector<std::vector<LayoutKind>> ElementwiseLayoutSets(size_t inputs, bool bound_inputs);

std::vector<ElementwiseProblem> ElementwiseAccuracyProblems(const std::vector<std::string> &names,
                                                            bool bound_inputs);
ElementwiseProblem ElementwiseSmall(const std::vector<std::string> &names, infiniDtype_t dtype);
std::vector<ElementwiseProblem> ElementwiseConformanceProblems(const std::vector<std::string> &names);
std::vector<BadDescriptorOf<ElementwiseProblem>> ElementwiseBadDescriptors(const std::vector<std::string> &names);
std::vector<TensorSpec> ElementwiseSpecs(const ElementwiseProblem &problem);

inline std::vector<infiniDtype_t> FloatDtypes() {
  return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
}

template <class Traits>
struct ElementwiseOp {
  using Problem = ElementwiseProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = Traits::kSubject;
  static constexpr bool kBoundInputs = Traits::kBoundInputs;

  static std::vector<TensorSpec> Specs(const Problem &p) { return ElementwiseSpecs(p); }
  static OpCalls Calls(const Problem &) { return Traits::Calls(); }
  static void Fill(const Problem &, std::vector<HostTensor> &t, Rng &rng) { Traits::Fill(t, rng); }
  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {Traits::Oracle(t)};
  }
  static double Flops(const Problem &p) { return static_cast<double>(NumElements(p.shape)); }
  static std::vector<infiniDtype_t> AdmittedDtypes() { return FloatDtypes(); }
  static std::vector<Problem> AccuracyProblems() {
    return ElementwiseAccuracyProblems(Traits::Names(), kBoundInputs);
  }
  static std::vector<Problem> ConformanceProblems() { return ElementwiseConformanceProblems(Traits::Names()); }
  static Problem ProbeProblem(infiniDtype_t dtype) { return ElementwiseSmall(Traits::Names(), dtype); }
  static std::vector<BadDescriptor> BadDescriptors() { return ElementwiseBadDescriptors(Traits::Names()); }
  static std::vector<AliasPair> InPlacePairs() {
    std::vector<AliasPair> pairs;
    const size_t aliased_inputs = kBoundInputs ? 1 : Traits::Names().size() - 1;
    for (size_t input = 1; input <= aliased_inputs; ++input) pairs.push_back({0, input});
    return pairs;
  }
  static OpClauses Clauses() {
    std::vector<std::string> math = Traits::MathClauses();
    math.push_back("OP-EW-3");
    return {math, {"OP-EW-1"}, {"OP-EW-2"}, {}, {}};
  }
};

// Fills each input (tensors[1..]) with magnitudes in [low, high] and random signs.
void FillInputsAwayFromZero(std::vector<HostTensor> &tensors, Rng &rng, double low, double high);

}  // namespace infinicts::op_cases
