// HardSwish: y = x · min(max(x + 3, 0), 6) / 6 (spec clauses OP-HARDSWISH-1, OP-EW). Magnitudes in
// [0.05, 6], both sides of the kinks at ±3.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct HardSwishTraits {
  static constexpr const char *kSubject = "hardswish";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"output", "input"}; }
  static OpCalls Calls() { return OperatorCalls<api::HardSwish>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.05, 6.0);
    // One element on the curved part at least: a one-element case must not expect a lone 0.
    t[1].SetAt(0, 1.5);
  }
  // -Inf: the formula gives -Inf·0 = NaN, the limit 0
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndPlusInfinity(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::HardSwish(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-HARDSWISH-1"}; }
};

using HardSwishOp = ElementwiseOp<HardSwishTraits>;
INFINICTS_OP_CASES(HardSwishOp);
INFINICTS_OP_WORKSPACE_CASES(HardSwishOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using HardSwishPerf = ElementwisePerf<HardSwishTraits>;
INFINICTS_OP_PERF_CASES(HardSwishPerf);

}  // namespace
}  // namespace infinicts::op_cases
