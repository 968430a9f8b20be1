// Softmax perf: the probabilities of the LM head's logits, [tokens, vocab] along the last
// axis. F32 only: most of 32000 probabilities lie below the half types' absolute tolerance,
// so an F16 or BF16 output could not be told from zeros (the accuracy cases say the same).
// Rows at ±750 as in the accuracy cases (no max subtraction overflows); checked whole.
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SoftmaxPerf {
  static constexpr const char *kSubject = "softmax";
  static std::vector<std::string> MathClauses() { return {"OP-SOFTMAX-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("lm_head_probs", RowWidth::kVocab, PerfWeight::kHeavy, {INFINI_DTYPE_F32});
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) { return SameShapeSpecs(p, {"y", "x"}, TokenRowShape(p)); }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::Softmax>(std::make_tuple(-1)); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillLargeMagnitudeRows(t[1], rng, 1, 750.0);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), NumElements(TokenRowShape(p)), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) { return std::vector<HostTensor>{oracle::Softmax(t[1], -1)}; };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(SoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
