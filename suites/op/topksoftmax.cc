// Topksoftmax: per row of x [tokens, experts], the topk experts of largest logit into
// indices (I32, ties in any order, the lower index first recommended) and their softmax probabilities over the whole row
// into values (F32), renormalised over the topk when norm != 0 (spec section OP-TOPKSOFTMAX).
// The create call takes x alone; values and indices are [tokens, topk] (RoutingOutputSpecs).
//
// Data (common/topk_routing_data.h): distinct logits on a grid, so the ranking is
// unambiguous; rows of few levels, whose ties inside the top k and at its edge only the
// lower-index rule decides; and rows shifted to ±1000 (±96 for the half types), where
// e^x without the max subtraction overflows or underflows. topk is 1, 2, a middle value
// and min(experts, 32) (every expert for 8 and 16), each with norm 0, where a softmax over
// only the selected experts differs from the one over the row, and norm 1 (norm 2 once:
// any nonzero value renormalises); norm 1 with topk 1 would write 1 everywhere, so it is
// not run. Expert counts of the MoE models: 8 (Mixtral), 16, 60 and 64 (Qwen-MoE), 128
// (Qwen3-MoE), 256 (DeepSeek-V3).
#include <algorithm>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/topk_routing_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct TopksoftmaxProblem : Param<TopksoftmaxProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // x
  size_t tokens = 5, experts = 64, topk = 4;
  int norm = 1;
  LayoutKind x_layout = LayoutKind::kContiguous;
  LogitRows rows = LogitRows::kDistinct;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName({tokens, experts}) + "__top" + std::to_string(topk) +
           (topk == experts ? "_all" : "") + "__norm" + std::to_string(norm) + "__x_" + LayoutName(x_layout) +
           (rows == LogitRows::kDistinct ? "" : std::string("__") + LogitRowsName(rows));
  }
  // x's shape is two members, not one Shape: tokens and experts are keyed fields.
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("tokens", tokens);
    field("experts", experts);
    field("topk", topk).Min(1).Max(32);  // OP-TOPKSOFTMAX: a topk of 0 or beyond 32 is not specified
    field("norm", norm);
    field("x", x_layout);
    field("logits", rows);
  }
};

struct TopksoftmaxOp {
  using Problem = TopksoftmaxProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "topksoftmax";
  static constexpr const char *kTensorRoles = "values indices x[~tokens,~experts]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = RoutingOutputSpecs(p.tokens, p.topk);
    specs.push_back({"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, {p.tokens, p.experts})});
    return specs;
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::Topksoftmax>(std::tuple<>(), std::make_tuple(p.topk, p.norm));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) { FillExpertLogits(t[2], rng, p.rows); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::TopkRoutingResult expected = oracle::Topksoftmax(t[2], p.topk, p.norm);
    return {std::move(expected.values), std::move(expected.indices)};
  }

  // Equal logits may come in any order (OP-TOPKSOFTMAX-6 only recommends the lower index first).
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got) {
    const HostTensor &x = t[2];
    return SettleTopkTies(expected, got, p.experts,
                          [&x](size_t r, size_t a, size_t b) { return x.Get({r, a}) == x.Get({r, b}); });
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(p.tokens * p.experts);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, size_t tokens, size_t experts, size_t topk, int norm,
                      LogitRows rows = LogitRows::kDistinct, LayoutKind x_layout = LayoutKind::kContiguous) {
    Problem p;
    p.dtype = dtype;
    p.tokens = tokens;
    p.experts = experts;
    p.topk = topk;
    p.norm = norm;
    p.rows = rows;
    p.x_layout = x_layout;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 5, 64, 4, 1); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, 5, 64, 4, 1));
    // x is the create call's only tensor (specs[2]).
    auto reshape_x = [](Specs &s, Shape shape) { Reshape(s[2], shape); };
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_I32; });
    bad.Add("x_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { reshape_x(s, {64}); });
    bad.Add("x_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { reshape_x(s, {1, 5, 64}); });
    bad.Add("x_no_experts", INFINI_STATUS_BAD_TENSOR_SHAPE, [=](Specs &s) { reshape_x(s, {5, 0}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [=](Specs &s) {
              s[2].dtype = INFINI_DTYPE_I32;
              reshape_x(s, {64});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-TOPKSOFTMAX-3", "OP-TOPKSOFTMAX-4", "OP-TOPKSOFTMAX-5", "OP-TOPKSOFTMAX-6"},
            {"OP-TOPKSOFTMAX-1"},
            {"OP-TOPKSOFTMAX-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(TopksoftmaxOp);
INFINICTS_OP_WORKSPACE_CASES(TopksoftmaxOp);

// Perf: the softmax router of the MoE models, x [tokens, experts] of router logits into the
// topk experts' indices and weights, with each model's expert count, topk and
// renormalisation (norm_topk_prob): Mixtral-8x7B (8 experts, top-2, renormalised),
// Qwen1.5-MoE-A2.7B (60, top-4, not), Qwen2-57B-A14B (64, top-8, not) and Qwen3-30B-A3B
// (128, top-8, renormalised). The logits are the accuracy cases' distinct ones; both outputs
// are checked whole (the indices exactly).
struct MoeRouting {
  const char *model;
  size_t experts, topk;
  int norm;
};
constexpr MoeRouting kSoftmaxRouters[] = {{"mixtral_8x7b", 8, 2, 1},
                                          {"qwen1_5_moe_a2_7b", 60, 4, 0},
                                          {"qwen2_57b_a14b", 64, 8, 0},
                                          {"qwen3_30b_a3b", 128, 8, 1}};

struct TopksoftmaxWorkload {
  using Op = TopksoftmaxOp;
  static std::vector<std::string> MathClauses() { return {"OP-TOPKSOFTMAX-3", "OP-TOPKSOFTMAX-4"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<NamedModelDims> models;
    for (const MoeRouting &router : kSoftmaxRouters) {
      models.push_back({router.model,
                        {{"experts", router.experts}, {"topk", router.topk}, {"norm", static_cast<size_t>(router.norm)}}});
    }
    return NamedModelProblems("router", PerfWeight::kCheap, HalfAndSingleDtypes(), models);
  }
  static TopksoftmaxProblem At(const PerfProblem &p) {
    return TopksoftmaxOp::Make(p.dtype, p.Dim("tokens"), p.Dim("experts"), p.Dim("topk"),
                               static_cast<int>(p.Dim("norm")));
  }
};
using TopksoftmaxPerf = OpPerf<TopksoftmaxWorkload>;
INFINICTS_OP_PERF_CASES(TopksoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
