// What Softmax and LogSoftmax share: y and x of one shape, a reduction axis given as an int
// attribute, rows of large magnitude along that axis (a common level of ±kRowMagnitude plus
// a spread of ±4, where exp overflows or underflows, so skipping the max subtraction gives
// Inf or NaN). An operator file gives a Traits struct:
//
//   struct SoftmaxTraits {
//     static constexpr const char *kSubject = "softmax";  // its flops: the spec table's row (common/flop_counts.h)
//     static constexpr double kRowMagnitude = 750.0;
//     static std::vector<std::string> Names();   // {"y", "x"}
//     static OpCalls Calls(int axis);
//     static HostTensor Oracle(const HostTensor &x, int axis);
//     static OpClauses Clauses();               // math, dtypes, shapes, (strides), params
//   };
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_case.h"

namespace infinicts::op_cases {

struct AxisProblem : Param<AxisProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape;
  int axis = -1;
  std::vector<std::string> names;  // output, input
  LayoutKind out_layout = LayoutKind::kContiguous, in_layout = LayoutKind::kContiguous;

  std::string Name() const;
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("axis", axis);
    if (names.size() < 2) return;  // the default-constructed problem, before its operator names them
    field(names[0], out_layout);
    field(names[1], in_layout);
  }
};

std::vector<AxisProblem> AxisAccuracyProblems(const std::vector<std::string> &names);
AxisProblem AxisSmall(const std::vector<std::string> &names, infiniDtype_t dtype);
std::vector<AxisProblem> AxisConformanceProblems(const std::vector<std::string> &names);
std::vector<BadDescriptorOf<AxisProblem>> AxisBadDescriptors(const std::vector<std::string> &names);
std::vector<TensorSpec> AxisSpecs(const AxisProblem &problem);
void FillAxisInput(const AxisProblem &problem, std::vector<HostTensor> &tensors, Rng &rng, double magnitude);

template <class Traits>
struct AxisOp {
  using Problem = AxisProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = Traits::kSubject;

  static std::vector<TensorSpec> Specs(const Problem &p) { return AxisSpecs(p); }
  static OpCalls Calls(const Problem &p) { return Traits::Calls(p.axis); }
  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillAxisInput(p, t, rng, Traits::kRowMagnitude);
  }
  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {Traits::Oracle(t[1], p.axis)};
  }
  static double Flops(const Problem &p) { return FlopsPerElement(Traits::kSubject) * static_cast<double>(NumElements(p.shape)); }
  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }
  static std::vector<Problem> AccuracyProblems() { return AxisAccuracyProblems(Traits::Names()); }
  static std::vector<Problem> ConformanceProblems() { return AxisConformanceProblems(Traits::Names()); }
  static Problem ProbeProblem(infiniDtype_t dtype) { return AxisSmall(Traits::Names(), dtype); }
  // Contiguous tensors of `shape` along the last axis.
  static Problem LastAxis(infiniDtype_t dtype, Shape shape) {
    Problem p = ProbeProblem(dtype);
    p.shape = std::move(shape);
    return p;
  }
  static std::vector<BadDescriptor> BadDescriptors() { return AxisBadDescriptors(Traits::Names()); }
  static std::vector<AliasPair> InPlacePairs() { return {{0, 1}}; }
  static OpClauses Clauses() { return Traits::Clauses(); }
};

}  // namespace infinicts::op_cases
