// What the elementwise operators share (Add, Sub, Mul, SwiGLU, Relu, Silu, Gelu, Sigmoid,
// Clip): one output and inputs of the output's shape, one dtype, any layout (an input may
// broadcast through stride 0). The accuracy problems named nan_inf plant NaN and infinities
// among the float inputs (docs/spec/op.md, "Non-finite inputs"). An operator file gives a
// Traits struct:
//
//   struct AddTraits {
//     static constexpr const char *kSubject = "add";  // its flops: the spec table's row (common/flop_counts.h)
//     static constexpr bool kBoundInputs = false;              // Clip: inputs after the first are bounds
//     static constexpr IntegerOperands kIntegers = IntegerOperands::kSums;  // I32/I64 admitted, optional
//     static std::vector<std::string> Names();                 // output first: {"c", "a", "b"}
//     static OpCalls Calls();
//     static void Fill(std::vector<HostTensor> &tensors, Rng &rng);   // the inputs (tensors[1..])
//     static std::vector<double> NonFiniteInputs(size_t input);         // planted in tensors[input]
//     static HostTensor Oracle(const std::vector<HostTensor> &tensors);
//     static std::vector<std::string> MathClauses();
//     static constexpr bool kConstantOutput = true;            // optional: Zeros and Ones (op_case.h)
//   };
//   using AddOp = ElementwiseOp<AddTraits>;
#pragma once

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_case.h"
#include "common/operator_calls.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {

// The integer dtypes an operator admits as an optional capability (I32 and I64), and which
// operands check them: kSums for Add and Sub, kProducts for Mul, kAnyValues for the fills
// (Zeros, Ones), whose one input only gives the shape (FillIntegerOperands).
enum class IntegerOperands { kNone, kSums, kProducts, kAnyValues };

// The optional integer dtypes of each: I32 and I64 for sums and products; for the fills,
// whose output is a constant any dtype holds, every integer dtype, BYTE and BOOL too (as
// InfiniCore's Zeros and Ones take them).
std::vector<infiniDtype_t> IntegerDtypesOf(IntegerOperands operands);

struct ElementwiseProblem : Param<ElementwiseProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape;
  std::vector<std::string> names;    // output first, then the inputs
  std::vector<LayoutKind> layouts;   // one per tensor
  bool non_finite = false;           // NaN and infinities planted among the inputs
  bool subnormal = false;            // subnormal values planted in the first input

  std::string Name() const;
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    for (size_t i = 0; i < names.size(); ++i) field(names[i], layouts[i]);  // "a=pad"
    field("nan_inf", non_finite);
    field("subnormal", subnormal);
  }
};

// The layout sets the accuracy cases run, for one output and `inputs` inputs; `bound_inputs`
// adds the set whose trailing inputs broadcast a single element (Clip's bounds).
std::vector<std::vector<LayoutKind>> ElementwiseLayoutSets(size_t inputs, bool bound_inputs);

std::vector<ElementwiseProblem> ElementwiseAccuracyProblems(const std::vector<std::string> &names,
                                                            bool bound_inputs, const std::vector<infiniDtype_t> &dtypes);
ElementwiseProblem ElementwiseSmall(const std::vector<std::string> &names, infiniDtype_t dtype);
// One small problem per dtype, F32 first (the default problem of the cases run once).
std::vector<ElementwiseProblem> ElementwiseConformanceProblems(const std::vector<std::string> &names,
                                                               const std::vector<infiniDtype_t> &dtypes);
// The float problems that also plant NaN and infinities (docs/spec/op.md "Non-finite inputs").
std::vector<ElementwiseProblem> ElementwiseNonFiniteProblems(const std::vector<std::string> &names,
                                                             const std::vector<infiniDtype_t> &dtypes);
// The float problems of an exact operator that plant subnormals in its first input
// (docs/spec/op.md "Subnormal inputs").
std::vector<ElementwiseProblem> ElementwiseSubnormalProblems(const std::vector<std::string> &names);
// Replaces about half of `input`'s elements by subnormal values of its dtype, both signs.
void PlantSubnormals(HostTensor &input, Rng &rng);
// Whether the tolerance table holds the operator's every float result exact.
bool ComputedExactly(const char *subject);

std::vector<BadDescriptorOf<ElementwiseProblem>> ElementwiseBadDescriptors(const std::vector<std::string> &names);
std::vector<TensorSpec> ElementwiseSpecs(const ElementwiseProblem &problem);

// The non-finite values an input may hold where IEEE arithmetic on the operator's formula
// gives the formula's limit too: NaN always; an infinity unless the formula turns it into NaN
// where the limit is a number (Silu, Gelu and SwiGLU's gate at -Inf: -Inf·0).
inline std::vector<double> NanAndBothInfinities() {
  return {std::numeric_limits<double>::quiet_NaN(), HUGE_VAL, -HUGE_VAL};
}
inline std::vector<double> NanAndPlusInfinity() { return {std::numeric_limits<double>::quiet_NaN(), HUGE_VAL}; }

// Replaces about one element in six of each input (tensors[1..]) by one of
// values_for(input), taken in turn so that each appears once the input holds enough
// elements. Inputs planted independently meet: Inf - Inf, NaN with Inf.
void PlantNonFinite(std::vector<HostTensor> &tensors, Rng &rng,
                    const std::function<std::vector<double>(size_t input)> &values_for);

inline std::vector<infiniDtype_t> FloatDtypes() {
  return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
}

// Integer inputs (tensors[1] and [2]) whose exact results are odd and beyond F32's 2^24 yet
// within the dtype and the fp64 oracle's 2^53: an integer operator computed through F32 is
// wrong at every element.
void FillIntegerOperands(std::vector<HostTensor> &tensors, Rng &rng, IntegerOperands operands);

template <class Traits>
struct ElementwiseOp {
  using Problem = ElementwiseProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = Traits::kSubject;
  static constexpr bool kBoundInputs = Traits::kBoundInputs;
  static constexpr bool kConstantOutput = ConstantOutput<Traits>::value;

  static std::vector<TensorSpec> Specs(const Problem &p) { return ElementwiseSpecs(p); }
  static OpCalls Calls(const Problem &) { return Traits::Calls(); }
  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    if (IsInteger(p.dtype) || p.dtype == INFINI_DTYPE_BOOL) FillIntegerOperands(t, rng, Traits::kIntegers);
    else Traits::Fill(t, rng);
    if (p.non_finite) PlantNonFinite(t, rng, &Traits::NonFiniteInputs);
    if (p.subnormal) PlantSubnormals(t[1], rng);
  }
  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {Traits::Oracle(t)};
  }
  static double Flops(const Problem &p) { return FlopsPerElement(Traits::kSubject) * static_cast<double>(NumElements(p.shape)); }
  static std::vector<infiniDtype_t> AdmittedDtypes() {
    std::vector<infiniDtype_t> dtypes = FloatDtypes();
    for (infiniDtype_t dtype : IntegerDtypesOf(Traits::kIntegers)) dtypes.push_back(dtype);
    return dtypes;
  }
  static std::vector<infiniDtype_t> OptionalDtypes() {
    std::vector<infiniDtype_t> dtypes = {INFINI_DTYPE_F64};
    for (infiniDtype_t dtype : IntegerDtypesOf(Traits::kIntegers)) dtypes.push_back(dtype);
    return dtypes;
  }
  static std::vector<Problem> AccuracyProblems() {
    std::vector<Problem> problems = ElementwiseAccuracyProblems(Traits::Names(), kBoundInputs, AdmittedDtypes());
    for (Problem &p : ElementwiseNonFiniteProblems(Traits::Names(), FloatDtypes())) problems.push_back(std::move(p));
    if (!kConstantOutput && ComputedExactly(kSubject)) {
      for (Problem &p : ElementwiseSubnormalProblems(Traits::Names())) problems.push_back(std::move(p));
    }
    return problems;
  }
  static std::vector<Problem> ConformanceProblems() {
    return ElementwiseConformanceProblems(Traits::Names(), AdmittedDtypes());
  }
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
// Fills each input with magnitudes log-uniform in [low, high] (every decade as likely) and
// random signs: small and large |x| in every case.
void FillInputsLogUniform(std::vector<HostTensor> &tensors, Rng &rng, double low, double high);
// The largest finite value of a float dtype (F16 65504; BF16 and F32 about 3.4e38).
double LargestFinite(infiniDtype_t dtype);

}  // namespace infinicts::op_cases
