// GeluTanh: y = x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³))), the tanh approximation (spec clauses
// OP-GELUTANH-1, OP-EW). Magnitudes in [0.25, 4], where it differs from the exact (erf) form by
// more than F32's tolerance.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct GeluTanhTraits {
  static constexpr const char *kSubject = "gelutanh";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::GeluTanh>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 4.0);
  }
  // -Inf: the formula gives -Inf·0 = NaN, the limit 0
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndPlusInfinity(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::GeluTanh(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-GELUTANH-1"}; }
};

using GeluTanhOp = ElementwiseOp<GeluTanhTraits>;
INFINICTS_OP_CASES(GeluTanhOp);
INFINICTS_OP_WORKSPACE_CASES(GeluTanhOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using GeluTanhPerf = ElementwisePerf<GeluTanhTraits>;
INFINICTS_OP_PERF_CASES(GeluTanhPerf);

}  // namespace
}  // namespace infinicts::op_cases
