// QuickGelu: y = x · sigmoid(1.702·x) (spec clauses OP-QUICKGELU-1, OP-EW). Magnitudes in [0.25,
// 8], where the 1.702 factor, Gelu's forms and Silu all differ.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct QuickGeluTraits {
  static constexpr const char *kSubject = "quickgelu";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::QuickGelu>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 8.0);
  }
  // -Inf: the formula gives -Inf / Inf = NaN, the limit 0
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndPlusInfinity(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::QuickGelu(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-QUICKGELU-1"}; }
};

using QuickGeluOp = ElementwiseOp<QuickGeluTraits>;
INFINICTS_OP_CASES(QuickGeluOp);
INFINICTS_OP_WORKSPACE_CASES(QuickGeluOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using QuickGeluPerf = ElementwisePerf<QuickGeluTraits>;
INFINICTS_OP_PERF_CASES(QuickGeluPerf);

}  // namespace
}  // namespace infinicts::op_cases
