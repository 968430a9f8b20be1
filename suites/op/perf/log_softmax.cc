// LogSoftmax perf: the log-probabilities of the LM head's logits, [tokens, vocab] along the
// last axis. Rows at ±120 as in the accuracy cases (no max subtraction overflows); checked whole.
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct LogSoftmaxPerf {
  static constexpr const char *kSubject = "log_softmax";
  static std::vector<std::string> MathClauses() { return {"OP-LOGSOFTMAX-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("lm_head_logprobs", RowWidth::kVocab, PerfWeight::kHeavy, HalfAndSingleDtypes());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) { return SameShapeSpecs(p, {"y", "x"}, TokenRowShape(p)); }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::LogSoftmax>(std::make_tuple(-1)); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillLargeMagnitudeRows(t[1], rng, 1, 120.0);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), NumElements(TokenRowShape(p)), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) { return std::vector<HostTensor>{oracle::LogSoftmax(t[1], -1)}; };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(LogSoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
