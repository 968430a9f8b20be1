// Topkrouter perf: DeepSeek-V3's (and R1's) router, x [tokens, 256] of router logits and
// the e_score_correction_bias [256] into the top-8 experts of the 4 kept groups (of 8), scaled
// by its routed_scaling_factor of 2.5. The inputs are the accuracy cases' random ones,
// rows redrawn until their ranking is unambiguous; both outputs are checked whole (the
// indices exactly).
#include "common/flop_counts.h"
#include "common/perf_case.h"
#include "common/topk_routing_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kDeepSeekV3Experts = 256, kDeepSeekV3Topk = 8;
constexpr float kDeepSeekV3Scaling = 2.5f;

struct TopkrouterPerf {
  static constexpr const char *kSubject = "topkrouter";
  static std::vector<std::string> MathClauses() { return {"OP-TOPKROUTER-3", "OP-TOPKROUTER-4"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems;
    for (size_t tokens : PerfTokens(PerfWeight::kCheap)) {
      for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
        PerfProblem p;
        p.dtype = dtype;
        p.model = "deepseek_v3";
        p.part = "router";
        p.tokens = tokens;
        p.dims = {{"tokens", tokens}, {"experts", kDeepSeekV3Experts}, {"topk", kDeepSeekV3Topk}};
        problems.push_back(p);
      }
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    std::vector<TensorSpec> specs = RoutingOutputSpecs(p.Dim("tokens"), p.Dim("topk"));
    specs.push_back({"x", Role::kInput, p.dtype, ContiguousLayout({p.Dim("tokens"), p.Dim("experts")})});
    specs.push_back({"correction_bias", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({p.Dim("experts")})});
    return specs;
  }
  static OpCalls Calls(const PerfProblem &p) {
    return OperatorCalls<api::Topkrouter>(std::tuple<>(), std::make_tuple(kDeepSeekV3Scaling, p.Dim("topk")));
  }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillRouterInputs(t[2], t[3], rng, RouterRows::kRandom, kDeepSeekV3Scaling, p.Dim("topk"));
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), p.Dim("tokens") * p.Dim("experts"), specs);
  }
  static PerfCheck Check(const PerfProblem &p) {
    PerfCheck check;
    const size_t topk = p.Dim("topk");
    check.full = [topk](const std::vector<HostTensor> &t) {
      oracle::TopkrouterResult expected = oracle::Topkrouter(t[2], t[3], kDeepSeekV3Scaling, topk);
      return std::vector<HostTensor>{std::move(expected.values), std::move(expected.indices)};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(TopkrouterPerf);

}  // namespace
}  // namespace infinicts::op_cases
