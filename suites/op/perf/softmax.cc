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
  static OpCalls Calls(const PerfProblem &) {
    OpCalls calls;
    calls.create = [](infiniopHandle_t handle, OpDescriptor *desc, const TensorDescriptors &t) {
      return cts::op().infiniopCreateSoftmaxDescriptor(handle, desc, t[0], t[1], -1);
    };
    calls.workspace_size = [](OpDescriptor desc, size_t *size) {
      return cts::op().infiniopGetSoftmaxWorkspaceSize(desc, size);
    };
    calls.compute = [](OpDescriptor desc, void *workspace, size_t size, const std::vector<void *> &d, void *stream) {
      return cts::op().infiniopSoftmax(desc, workspace, size, d[0], d[1], stream);
    };
    calls.destroy = [](OpDescriptor desc) { return cts::op().infiniopDestroySoftmaxDescriptor(desc); };
    return calls;
  }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillLargeMagnitudeRows(t[1], rng, 1, 750.0);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(perf_flops::kSoftmax, NumElements(TokenRowShape(p)), specs);
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
