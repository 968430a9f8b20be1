// Selu: y = scale·x for x > 0, scale·alpha·(e^x − 1) otherwise (spec clauses OP-SELU-1, OP-EW).
// Magnitudes in [0.05, 8]: the negative branch near 0 and saturated.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SeluTraits {
  static constexpr const char *kSubject = "selu";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Selu>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.05, 8.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Selu(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-SELU-1"}; }
};

using SeluOp = ElementwiseOp<SeluTraits>;
INFINICTS_OP_CASES(SeluOp);
INFINICTS_OP_WORKSPACE_CASES(SeluOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using SeluPerf = ElementwisePerf<SeluTraits>;
INFINICTS_OP_PERF_CASES(SeluPerf);

}  // namespace
}  // namespace infinicts::op_cases
