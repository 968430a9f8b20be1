// RMSNorm perf: the norm before attention and before the FFN, y = x·w / sqrt(mean(x²) + eps)
// over [tokens, hidden] with w of hidden, epsilon 1e-5 (Llama-2's). Rows whose mean square
// is near epsilon, as in the accuracy cases (epsilon outside the square root shows); the
// whole output is checked.
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr float kEpsilon = 1e-5f;

struct RmsNormPerf {
  static constexpr const char *kSubject = "rms_norm";
  static std::vector<std::string> MathClauses() { return {"OP-RMSNORM-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("attn_norm", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    std::vector<TensorSpec> specs = SameShapeSpecs(p, {"y", "x"}, TokenRowShape(p));
    specs.push_back({"w", Role::kInput, p.dtype, ContiguousLayout({p.Dim("width")})});
    return specs;
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::RMSNorm>(std::make_tuple(kEpsilon)); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillSmallRmsRows(t[1], rng, static_cast<double>(kEpsilon));
    FillAwayFromZero(t[2], rng, 0.5, 1.5);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), NumElements(TokenRowShape(p)), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      return std::vector<HostTensor>{oracle::RMSNorm(t[1], t[2], static_cast<double>(kEpsilon))};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(RmsNormPerf);

}  // namespace
}  // namespace infinicts::op_cases
