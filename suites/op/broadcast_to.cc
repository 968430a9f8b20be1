// BroadcastTo: y = x broadcast by numpy's rules, x's dims aligned to y's last ones, each y's or 1
// (spec section OP-BROADCASTTO).
//
// Data: x's values away from zero and drawn per element, so an element read from a neighbour,
// or a broadcast dim stepped instead of repeated, shows. x has dims of 1 in every position
// (first, inner, last), fewer dims than y, and up to 8 dims; y runs padded and as a view (a
// kernel that walks y by its linear index writes the gaps), x transposed, padded, offset,
// walked backwards and with odd strides on its dims of 1.
#include <string>
#include <utility>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct BroadcastToProblem : Param<BroadcastToProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape x = {4, 1}, y = {3, 4, 5};
  LayoutKind y_layout = LayoutKind::kContiguous, x_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__x_" + ShapeName(x) + "_y_" + ShapeName(y) + "__" +
           LayoutsName({{"y", y_layout}, {"x", x_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("x", x);
    field("y", y);
    field("y_layout", y_layout);
    field("x_layout", x_layout);
  }
};

struct BroadcastToOp {
  using Problem = BroadcastToProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "broadcast_to";
  // The probe problem's x [4, 1] into y [3, 4, 5]: x's 4 is y's middle dim.
  static constexpr const char *kTensorRoles = "y[~a,b,~c]=x x[b,~c]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"y", Role::kOutput, p.dtype, MakeLayout(p.y_layout, p.y)},
            {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, p.x)}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::BroadcastTo>(); }

  static void Fill(const Problem &, std::vector<HostTensor> &t, Rng &rng) { FillAwayFromZero(t[1], rng, 0.25, 4.0); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {oracle::BroadcastTo(t[1], p.y)};
  }

  static double Flops(const Problem &) { return FlopsPerElement(kSubject); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape x, Shape y) {
    Problem p;
    p.dtype = dtype;
    p.x = std::move(x);
    p.y = std::move(y);
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 1}, {3, 4, 5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 1}, {3, 4, 5}));
    bad.Add("x_more_dims_than_y", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {2, 3, 4, 1}); });
    bad.Add("x_dims_aligned_first", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {3, 1}); });
    bad.Add("y_without_x_dim", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {3, 5}); });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-BROADCASTTO-3"}, {"OP-BROADCASTTO-1"}, {"OP-BROADCASTTO-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(BroadcastToOp);
INFINICTS_OP_WORKSPACE_CASES(BroadcastToOp);

// Perf: Llama-3-8B's RoPE tables broadcast to every query head, [tokens, 1, 64] into [tokens,
// 32, 64], at the cheap operators' token counts. Costed as x read and y written.
struct BroadcastToWorkload {
  using Op = BroadcastToOp;
  static std::vector<std::string> MathClauses() { return {"OP-BROADCASTTO-3"}; }
  static std::vector<PerfProblem> Problems() {
    return NamedModelProblems("rope_table_per_head", PerfWeight::kCheap, HalfAndSingleDtypes(),
                              {{kLlama3_8B.name, {{"heads", kLlama3_8B.heads}, {"half_dim", kLlama3_8B.head_dim / 2}}}});
  }
  static BroadcastToOp::Problem At(const PerfProblem &p) {
    return BroadcastToOp::Make(p.dtype, {p.Dim("tokens"), 1, p.Dim("half_dim")},
                               {p.Dim("tokens"), p.Dim("heads"), p.Dim("half_dim")});
  }
};
using BroadcastToPerf = OpPerf<BroadcastToWorkload>;
INFINICTS_OP_PERF_CASES(BroadcastToPerf);

}  // namespace
}  // namespace infinicts::op_cases
