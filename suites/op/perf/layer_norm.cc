// LayerNorm perf: a LayerNorm with bias at the model's width (as GPT-style models place it
// where Llama has RMSNorm), over [tokens, hidden], eps 1e-5, with its three outputs
// (output, input_standardization, input_std_deviation). Every output is checked whole.
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr float kEpsilon = 1e-5f;

struct LayerNormPerf {
  static constexpr const char *kSubject = "layer_norm";
  static std::vector<std::string> MathClauses() { return {"OP-LAYERNORM-3", "OP-LAYERNORM-4"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("layer_norm", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const Layout rows = ContiguousLayout(TokenRowShape(p)), row = ContiguousLayout({p.Dim("width")});
    return {{"output", Role::kOutput, p.dtype, rows},
            {"input_standardization", Role::kOutput, p.dtype, rows},
            {"input_std_deviation", Role::kOutput, p.dtype, ContiguousLayout({p.Dim("tokens")})},
            {"input", Role::kInput, p.dtype, rows},
            {"weight", Role::kInput, p.dtype, row},
            {"bias", Role::kInput, p.dtype, row}};
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::LayerNorm>(std::make_tuple(kEpsilon)); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillAwayFromZero(t[3], rng, 0.25, 2.0);
    FillAwayFromZero(t[4], rng, 0.5, 1.5);
    FillAwayFromZero(t[5], rng, 0.25, 1.0);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), NumElements(TokenRowShape(p)), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      oracle::LayerNormResult r = oracle::LayerNorm(t[3], t[4], &t[5], static_cast<double>(kEpsilon));
      std::vector<HostTensor> outputs;
      outputs.push_back(std::move(r.output));
      outputs.push_back(std::move(r.standardization));
      outputs.push_back(std::move(r.std_deviation));
      return outputs;
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(LayerNormPerf);

}  // namespace
}  // namespace infinicts::op_cases
