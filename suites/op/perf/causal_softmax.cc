// CausalSoftmax perf: attention scores [heads, tokens, total], row i keeping the columns
// j <= total - tokens + i: decode steps (1 and 16 tokens) over a context of kContext tokens,
// prefill chunks (512, 4096 tokens) square. F32 only: long rows of probabilities in F16 or BF16 sit below the half
// types' absolute tolerance. Rows at ±750 as in the accuracy cases. Checked whole while the
// scores are small, else 256 sampled elements (each the oracle over its row's kept prefix).
#include <algorithm>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kContext = 512;

struct CausalSoftmaxPerf {
  static constexpr const char *kSubject = "causal_softmax";
  static std::vector<std::string> MathClauses() { return {"OP-CAUSALSOFTMAX-3"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kHeavy, {INFINI_DTYPE_F32}, [](const LlmModel &l, size_t tokens) {
      return PartDims{{"attn_scores", {{"heads", l.heads}, {"seq", tokens}, {"total", std::max(tokens, kContext)}}}};
    });
  }
  static Shape ScoreShape(const PerfProblem &p) { return {p.Dim("heads"), p.Dim("seq"), p.Dim("total")}; }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) { return SameShapeSpecs(p, {"y", "x"}, ScoreShape(p)); }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::CausalSoftmax>(); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillLargeMagnitudeRows(t[1], rng, 2, 750.0);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), NumElements(ScoreShape(p)), specs);
  }
  static PerfCheck Check(const PerfProblem &p) {
    const size_t seq = p.Dim("seq"), total = p.Dim("total");
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) { return std::vector<HostTensor>{oracle::CausalSoftmax(t[1])}; };
    check.element = [seq, total](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t row = flat / total, column = flat % total, last_kept = total - seq + row % seq;
      if (column > last_kept) return 0.0;
      // A one-row problem over the kept prefix keeps every column: the same softmax.
      const HostTensor kept = GatherElements(t[1], {1, last_kept + 1}, row * total, 1);
      return oracle::CausalSoftmax(kept).GetAt(column);
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(CausalSoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
