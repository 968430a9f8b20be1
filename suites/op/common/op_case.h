// The vocabulary every operator file of the op suite speaks (after benchdnn's drivers and
// nccl-tests' per-collective files): an operator is a traits struct that describes, for its
// own Problem type, the tensors of a call (TensorSpec), how to call the backend (OpCalls),
// how to fill inputs, what the fp64 oracle expects, and which problems each mode runs.
// Everything else (devices, descriptors, canaries, comparison, conformance checks) is common.
// Which problems the conformance and accuracy cases run is data: the operator's case files,
// suites/op/cases/<subject>.conformance.cases (one per admitted dtype; the first is the
// default problem) and <subject>.accuracy.cases (common/case_files.h).
//
//   struct GemmOp {
//     using Problem = GemmProblem;                                  // Param<GemmProblem>
//     using BadDescriptor = BadDescriptorOf<Problem>;
//     static constexpr const char *kSubject = "gemm";
//     static constexpr const char *kTensorRoles = "c[m,n] a[m,k]=c b[k,n]=c";  // optional (common/tensor_roles.h)
//     static std::vector<TensorSpec> Specs(const Problem &);        // in the create call's order
//     static OpCalls Calls(const Problem &);                        // create / workspace / compute / destroy
//     static void Fill(const Problem &, std::vector<HostTensor> &, Rng &);
//     static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &);
//     static double Flops(const Problem &);
//     static std::vector<BadDescriptor> BadDescriptors();           // those kTensorRoles cannot give
//     static std::vector<infiniDtype_t> AdmittedDtypes();          // of the operator's main tensor
//     static std::vector<infiniDtype_t> OptionalDtypes();          // optional: of those, the optional ones (F64 if absent)
//     static Problem ProbeProblem(infiniDtype_t);                   // a valid problem but for that dtype
//     static std::vector<AliasPair> InPlacePairs();                 // (output, input) the spec lets alias
//     static OpClauses Clauses();
//   };
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/problem_grammar.h"
#include "cts/case.h"
#include "tensor/generate.h"
#include "tensor/host_tensor.h"
#include "tensor/layout.h"

namespace infinicts::op_cases {

// Base of every op-suite parameter. Its PrintTo is a plain function, preferred by overload
// resolution (with GoogleTest 1.12 the template cts::PrintTo alone is ambiguous). A Problem
// that declares its Fields (common/problem_grammar.h) takes its JSON and its line from them.
template <class P>
struct Param : cts::ParamBase {
  friend void PrintTo(const P &param, std::ostream *os) { *os << param.Json(); }
  std::string Json() const { return ProblemFieldsJson(static_cast<const P &>(*this)).dump(); }
  std::string Line() const { return ProblemLine(static_cast<const P &>(*this)); }
};

enum class Role {
  kInput,   // read only; its bytes must come back unchanged
  kOutput,  // written; starts as NaN (floats) or all-ones bytes (integers)
  kInOut,   // read and written (Gemm's c); Fill gives its initial values
};

// One tensor argument, in the order the create call takes them.
struct TensorSpec {
  std::string name;
  Role role = Role::kInput;
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Layout layout;
  bool present = true;   // false: an optional tensor left out (NULL descriptor and NULL pointer)
  bool optional = false;  // the create call takes NULL for it (LayerNorm's and Conv's bias)
  // Absent, yet compute gets a non-NULL pointer to storage of all-ones bytes (NaN) of its
  // layout, as a caller passes a stale pointer: a backend that reads it shows NaN.
  bool junk_pointer = false;
  // false: compute takes the tensor's data but the create call no descriptor of it, so its
  // layout is the caller's promise (Topksoftmax's values and indices, sized by topk).
  bool described = true;
};

inline bool IsWritten(const TensorSpec &spec) { return spec.role != Role::kInput; }

using OpDescriptor = struct InfiniopDescriptor *;
using TensorDescriptors = std::vector<infiniopTensorDescriptor_t>;  // one per described spec; NULL when absent

// The backend calls of one operator for one problem; attributes (alpha, eps, axis, ...) are
// bound inside. workspace_size is empty for operators without workspace functions.
struct OpCalls {
  std::function<infiniStatus_t(infiniopHandle_t, OpDescriptor *, const TensorDescriptors &)> create;
  std::function<infiniStatus_t(OpDescriptor, size_t *)> workspace_size;
  std::function<infiniStatus_t(OpDescriptor, void *workspace, size_t workspace_size, const std::vector<void *> &data,
                               void *stream)>
      compute;
  std::function<infiniStatus_t(OpDescriptor)> destroy;
};

// A descriptor the create call must refuse: a valid problem's specs changed by `mutate`,
// with the status RULES gives. Attributes live in the problem, so `problem` may differ too.
template <class Problem>
struct BadDescriptorOf : Param<BadDescriptorOf<Problem>> {
  std::string name;  // what is wrong, e.g. "k_mismatch"
  Problem problem;
  std::function<void(std::vector<TensorSpec> &)> mutate;
  infiniStatus_t expected = INFINI_STATUS_BAD_TENSOR_SHAPE;
  // Two things wrong at once: the status of the second, which OP-DESC-10 (a SHOULD) ranks after
  // `expected`; SUCCESS when only one thing is wrong.
  infiniStatus_t second_fault = INFINI_STATUS_SUCCESS;
  // A variant named "all_<dtype>" ("all_i32") gives every tensor that dtype, one the spec does
  // not list for the operator: a backend may support it (SUCCESS passes, recorded as
  // accepted_beyond_spec), and an operator that admits it has no such variant (op_cases.h).
  // A refusal the spec only recommends (OP-DESC-26: outputs whose rows partly overlap): SUCCESS
  // passes, recorded as refused_as_recommended 0.
  bool recommended = false;

  std::string Name() const { return name; }
  std::string Json() const;
};

template <class Problem>
std::string BadDescriptorOf<Problem>::Json() const {
  nlohmann::json json = nlohmann::json::parse(problem.Json());
  json["variant"] = name;
  json["expected_status"] = StatusName(expected);
  if (second_fault != INFINI_STATUS_SUCCESS) json["also_wrong"] = StatusName(second_fault);
  if (recommended) json["refusal"] = "recommended";
  return json.dump();
}

// Builds an operator's BadDescriptors(): each entry a valid problem (the list's default, or one
// given to AddFor) whose specs `mutate` makes wrong, the status RULES gives, and the status of a
// second fault where there is one. The mutators outlive BadDescriptors(): a helper they call is
// a free function (Reshape) or captured by value, never by reference.
//
//   BadDescriptorList<Problem> bad(Small(INFINI_DTYPE_F32));
//   bad.Add("k_mismatch", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {8, 6}); });
//   bad.AddFor(stride_0, "stride_0", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
//   return bad;
template <class Problem>
class BadDescriptorList {
 public:
  using Mutate = std::function<void(std::vector<TensorSpec> &)>;

  explicit BadDescriptorList(Problem problem) : problem_(std::move(problem)) {}

  BadDescriptorList &Add(std::string name, infiniStatus_t expected, Mutate mutate,
                         infiniStatus_t second_fault = INFINI_STATUS_SUCCESS) {
    return AddFor(problem_, std::move(name), expected, std::move(mutate), second_fault);
  }
  BadDescriptorList &AddFor(const Problem &problem, std::string name, infiniStatus_t expected, Mutate mutate,
                            infiniStatus_t second_fault = INFINI_STATUS_SUCCESS) {
    BadDescriptorOf<Problem> d;
    d.name = std::move(name);
    d.problem = problem;
    d.mutate = std::move(mutate);
    d.expected = expected;
    d.second_fault = second_fault;
    list_.push_back(std::move(d));
    return *this;
  }
  // A refusal the spec recommends without requiring it (outputs whose rows partly overlap).
  BadDescriptorList &AddRecommended(std::string name, infiniStatus_t expected, Mutate mutate) {
    return AddRecommendedFor(problem_, std::move(name), expected, std::move(mutate));
  }
  // The same for a problem of its own (attributes a create call should refuse).
  BadDescriptorList &AddRecommendedFor(const Problem &problem, std::string name, infiniStatus_t expected,
                                       Mutate mutate = [](std::vector<TensorSpec> &) {}) {
    AddFor(problem, std::move(name), expected, std::move(mutate));
    list_.back().recommended = true;
    return *this;
  }

  operator std::vector<BadDescriptorOf<Problem>>() const { return list_; }

 private:
  Problem problem_;
  std::vector<BadDescriptorOf<Problem>> list_;
};

// Gives a spec another shape, with that shape's contiguous layout.
inline void Reshape(TensorSpec &spec, const Shape &shape) { spec.layout = ContiguousLayout(shape); }

// An output that may share its memory (same layout) with an input.
struct AliasPair {
  size_t output;
  size_t input;
};

// The operator's own clauses, by what a case checks.
struct OpClauses {
  std::vector<std::string> math;     // the operator's result (accuracy cases)
  std::vector<std::string> dtypes;   // admitted dtypes, BAD_TENSOR_DTYPE
  std::vector<std::string> shapes;   // BAD_TENSOR_SHAPE
  std::vector<std::string> strides;  // BAD_TENSOR_STRIDES (besides OP-DESC's self-overlap rule)
  std::vector<std::string> params;   // BAD_PARAM for attributes
  // The SHOULD clauses of its refusals as recommended (BadDescriptorList::AddRecommended) of
  // other statuses than BAD_TENSOR_STRIDES (whose overlapping outputs OP-DESC-26 covers).
  std::vector<std::string> recommended = {};
};

// The admitted dtypes a backend may refuse without missing a level (docs/spec/op.md "Dtypes"):
// the operator's OptionalDtypes() where it has one, else F64 alone (most accelerators have none).
template <class Op>
auto OptionalDtypesOf(int) -> decltype(Op::OptionalDtypes()) {
  return Op::OptionalDtypes();
}
template <class Op>
std::vector<infiniDtype_t> OptionalDtypesOf(long) {
  return {INFINI_DTYPE_F64};
}
template <class Op>
std::vector<infiniDtype_t> OptionalDtypesOf() {
  return OptionalDtypesOf<Op>(0);
}

// Whether the operator's output is a constant by its definition (Zeros, Ones): static
// constexpr bool kConstantOutput = true. Its outputs start as NaN, so a constant expected
// output still tells a right result from a wrong one, and is not refused as weak data.
template <class Op, class = void>
struct ConstantOutput : std::false_type {};
template <class Op>
struct ConstantOutput<Op, std::void_t<decltype(Op::kConstantOutput)>> : std::bool_constant<Op::kConstantOutput> {};

// A failure whose message is exactly `text`: its first line is what a terminal shows, so it
// says what went wrong (GoogleTest's ADD_FAILURE would put "Failed" there).
#define OP_ADD_FAILURE(text) GTEST_NONFATAL_FAILURE_(std::string(text).c_str())
#define OP_FAIL(text) GTEST_FATAL_FAILURE_(std::string(text).c_str())

// Ends the calling driver when a helper it called failed fatally or ended the case.
#define OP_CHECKPOINT()                                                                    \
  do {                                                                                     \
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;        \
  } while (0)

}  // namespace infinicts::op_cases
