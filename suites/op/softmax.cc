// Softmax along one axis (spec section OP-SOFTMAX): y = e^(x - m) / Σ e^(x - m), m the
// maximum along the axis. Rows sit at ±750 (common/axis_ops.h): beyond ±745 e^x overflows
// or underflows even in double, so a softmax without max subtraction returns Inf or NaN
// whatever precision it computes in. Shapes, axes and layouts are shared with LogSoftmax.
#include "common/axis_ops.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SoftmaxTraits {
  static constexpr const char *kSubject = "softmax";
  static constexpr double kRowMagnitude = 750.0;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls(int axis) { return OperatorCalls<api::Softmax>(std::make_tuple(axis)); }
  static HostTensor Oracle(const HostTensor &x, int axis) { return oracle::Softmax(x, axis); }
  static OpClauses Clauses() { return {{"OP-SOFTMAX-3"}, {"OP-SOFTMAX-2"}, {"OP-SOFTMAX-2"}, {}, {"OP-SOFTMAX-1"}}; }
};

using SoftmaxOp = AxisOp<SoftmaxTraits>;
INFINICTS_OP_CASES(SoftmaxOp);
INFINICTS_OP_WORKSPACE_CASES(SoftmaxOp);

// Perf: the probabilities of the LM head's logits, [tokens, vocab] along the last axis. F32
// only: most of 32000 probabilities lie below the half types' absolute tolerance, so an F16
// or BF16 output could not be told from zeros (the accuracy cases say the same). Rows at
// ±750 as in the accuracy cases (no max subtraction overflows); checked whole.
struct SoftmaxWorkload {
  using Op = SoftmaxOp;
  static std::vector<std::string> MathClauses() { return {"OP-SOFTMAX-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("lm_head_probs", RowWidth::kVocab, PerfWeight::kHeavy, {INFINI_DTYPE_F32});
  }
  static AxisProblem At(const PerfProblem &p) { return SoftmaxOp::LastAxis(p.dtype, TokenRowShape(p)); }
};
using SoftmaxPerf = OpPerf<SoftmaxWorkload>;
INFINICTS_OP_PERF_CASES(SoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
