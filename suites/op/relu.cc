// Relu: y = max(x, 0) (spec clauses OP-RELU-1, OP-EW). Inputs away from zero, half of them
// negative; the result is exact.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct ReluTraits {
  static constexpr const char *kSubject = "relu";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Relu>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 4.0);
    // One positive element at least: a one-element case must not expect a lone 0.
    t[1].SetAt(0, std::fabs(t[1].GetAt(0)));
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Relu(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-RELU-1"}; }
};

using ReluOp = ElementwiseOp<ReluTraits>;
INFINICTS_OP_CASES(ReluOp);
INFINICTS_OP_WORKSPACE_CASES(ReluOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using ReluPerf = ElementwisePerf<ReluTraits>;
INFINICTS_OP_PERF_CASES(ReluPerf);

}  // namespace
}  // namespace infinicts::op_cases
