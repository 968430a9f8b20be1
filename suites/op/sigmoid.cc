// Sigmoid: y = 1 / (1 + e^-x) (spec clauses OP-SIGMOID-1, OP-EW). Inputs in ±[0.25, 8].
// Shapes, layouts and checks: common/elementwise.h.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SigmoidTraits {
  static constexpr const char *kSubject = "sigmoid";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Sigmoid>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 8.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Sigmoid(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-SIGMOID-1"}; }
};

using SigmoidOp = ElementwiseOp<SigmoidTraits>;
INFINICTS_OP_CASES(SigmoidOp);
INFINICTS_OP_WORKSPACE_CASES(SigmoidOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using SigmoidPerf = ElementwisePerf<SigmoidTraits>;
INFINICTS_OP_PERF_CASES(SigmoidPerf);

}  // namespace
}  // namespace infinicts::op_cases
