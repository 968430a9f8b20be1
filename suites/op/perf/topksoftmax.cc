// Topksoftmax perf: the softmax router of the MoE models, x [tokens, experts] of router
// logits into the topk experts' indices and weights, with each model's expert count, topk
// and renormalisation (norm_topk_prob): Mixtral-8x7B (8 experts, top-2, renormalised),
// Qwen1.5-MoE-A2.7B (60, top-4, not), Qwen2-57B-A14B (64, top-8, not) and Qwen3-30B-A3B
// (128, top-8, renormalised). The logits are the accuracy cases' distinct ones; both outputs
// are checked whole (the indices exactly).
#include "common/flop_counts.h"
#include "common/perf_case.h"
#include "common/topk_routing_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct MoeRouting {
  const char *model;
  size_t experts, topk;
  int norm;
};
constexpr MoeRouting kSoftmaxRouters[] = {{"mixtral_8x7b", 8, 2, 1},
                                          {"qwen1_5_moe_a2_7b", 60, 4, 0},
                                          {"qwen2_57b_a14b", 64, 8, 0},
                                          {"qwen3_30b_a3b", 128, 8, 1}};

struct TopksoftmaxPerf {
  static constexpr const char *kSubject = "topksoftmax";
  static std::vector<std::string> MathClauses() { return {"OP-TOPKSOFTMAX-3", "OP-TOPKSOFTMAX-4"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems;
    for (const MoeRouting &router : kSoftmaxRouters) {
      for (size_t tokens : PerfTokens(PerfWeight::kCheap)) {
        for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
          PerfProblem p;
          p.dtype = dtype;
          p.model = router.model;
          p.part = "router";
          p.tokens = tokens;
          p.dims = {{"tokens", tokens},
                    {"experts", router.experts},
                    {"topk", router.topk},
                    {"norm", static_cast<size_t>(router.norm)}};
          problems.push_back(p);
        }
      }
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    std::vector<TensorSpec> specs = RoutingOutputSpecs(p.Dim("tokens"), p.Dim("topk"));
    specs.push_back({"x", Role::kInput, p.dtype, ContiguousLayout({p.Dim("tokens"), p.Dim("experts")})});
    return specs;
  }
  static OpCalls Calls(const PerfProblem &p) {
    return OperatorCalls<api::Topksoftmax>(std::tuple<>(),
                                           std::make_tuple(p.Dim("topk"), static_cast<int>(p.Dim("norm"))));
  }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillExpertLogits(t[2], rng, LogitRows::kDistinct);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), p.Dim("tokens") * p.Dim("experts"), specs);
  }
  static PerfCheck Check(const PerfProblem &p) {
    PerfCheck check;
    const size_t topk = p.Dim("topk");
    const int norm = static_cast<int>(p.Dim("norm"));
    check.full = [topk, norm](const std::vector<HostTensor> &t) {
      oracle::TopkRoutingResult expected = oracle::Topksoftmax(t[2], topk, norm);
      return std::vector<HostTensor>{std::move(expected.values), std::move(expected.indices)};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(TopksoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
