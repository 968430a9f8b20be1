// Gelu: y = x/2 · (1 + erf(x/√2)), the erf form (spec clauses OP-GELU-1, OP-EW). Inputs in
// ±[0.25, 4], where the tanh approximation differs from the erf form by more than F32's
// tolerance.
// Shapes, layouts and checks: common/elementwise.h.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct GeluTraits {
  static constexpr const char *kSubject = "gelu";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Gelu>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 4.0);
  }
  // -Inf: the formula gives -Inf·0 = NaN, the limit 0
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndPlusInfinity(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Gelu(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-GELU-1"}; }
};

using GeluOp = ElementwiseOp<GeluTraits>;
INFINICTS_OP_CASES(GeluOp);
INFINICTS_OP_WORKSPACE_CASES(GeluOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using GeluPerf = ElementwisePerf<GeluTraits>;
INFINICTS_OP_PERF_CASES(GeluPerf);

}  // namespace
}  // namespace infinicts::op_cases
