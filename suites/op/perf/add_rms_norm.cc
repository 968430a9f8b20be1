// AddRMSNorm perf: the residual add and the norm before attention or the FFN, over
// [tokens, hidden] with weight [hidden] and epsilon 1e-6 (Llama-3's and Qwen2's), at each
// serving model's hidden size. a and b cancel to rows whose mean square is near epsilon,
// as in the accuracy cases; both outputs are checked whole.
#include "common/flop_counts.h"
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr float kEpsilon = 1e-6f;

struct AddRmsNormPerf {
  static constexpr const char *kSubject = "add_rms_norm";
  static std::vector<std::string> MathClauses() { return {"OP-ADDRMSNORM-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("residual_norm", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            ServingModels());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    std::vector<TensorSpec> specs = SameShapeSpecs(p, {"y", "residual_out", "a", "b"}, TokenRowShape(p));
    specs[1].role = Role::kOutput;
    specs.push_back({"weight", Role::kInput, p.dtype, ContiguousLayout({p.Dim("width")})});
    return specs;
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::AddRMSNorm>(std::make_tuple(kEpsilon)); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    HostTensor sum(INFINI_DTYPE_F64, t[2].shape());
    FillSmallRmsRows(sum, rng, static_cast<double>(kEpsilon));
    FillAwayFromZero(t[2], rng, 0.25, 0.5);
    for (size_t i = 0; i < t[2].numel(); ++i) t[3].SetAt(i, sum.GetAt(i) - t[2].GetAt(i));
    FillAwayFromZero(t[4], rng, 0.5, 1.5);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), NumElements(TokenRowShape(p)), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      oracle::AddRMSNormResult result = oracle::AddRMSNorm(t[2], t[3], t[4], static_cast<double>(kEpsilon));
      return std::vector<HostTensor>{result.y, result.residual_out};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(AddRmsNormPerf);

}  // namespace
}  // namespace infinicts::op_cases
