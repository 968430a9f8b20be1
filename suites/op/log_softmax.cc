// LogSoftmax along dimension `dim` (spec section OP-LOGSOFTMAX): output = (x - m) -
// ln Σ e^(x - m), m the maximum along the dim. Rows sit at ±120 (common/axis_ops.h), where
// e^x overflows or underflows in F32, so a float log-softmax without max subtraction returns
// Inf or NaN. (Not further out: F32's tolerance for this operator allows for x - (m + ln Σ)
// losing 2^-24·|x|.)
#include "common/axis_ops.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct LogSoftmaxTraits {
  static constexpr const char *kSubject = "log_softmax";
  static constexpr double kRowMagnitude = 120.0;
  static std::vector<std::string> Names() { return {"output", "input"}; }
  static OpCalls Calls(int dim) { return OperatorCalls<api::LogSoftmax>(std::make_tuple(dim)); }
  static HostTensor Oracle(const HostTensor &x, int dim) { return oracle::LogSoftmax(x, dim); }
  static OpClauses Clauses() {
    return {{"OP-LOGSOFTMAX-3"}, {"OP-LOGSOFTMAX-2"}, {"OP-LOGSOFTMAX-2"}, {}, {"OP-LOGSOFTMAX-1"}};
  }
};

using LogSoftmaxOp = AxisOp<LogSoftmaxTraits>;
INFINICTS_OP_CASES(LogSoftmaxOp);
INFINICTS_OP_WORKSPACE_CASES(LogSoftmaxOp);

// Perf: the log-probabilities of the LM head's logits, [tokens, vocab] along the last axis.
// Rows at ±120 as in the accuracy cases (no max subtraction overflows); checked whole.
struct LogSoftmaxWorkload {
  using Op = LogSoftmaxOp;
  static std::vector<std::string> MathClauses() { return {"OP-LOGSOFTMAX-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("lm_head_logprobs", RowWidth::kVocab, PerfWeight::kHeavy, HalfAndSingleDtypes());
  }
  static AxisProblem At(const PerfProblem &p) { return LogSoftmaxOp::LastAxis(p.dtype, TokenRowShape(p)); }
};
using LogSoftmaxPerf = OpPerf<LogSoftmaxWorkload>;
INFINICTS_OP_PERF_CASES(LogSoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
