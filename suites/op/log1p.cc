// Log1p: y = ln(1 + x) (spec clauses OP-LOG1P-1, OP-EW). Inputs above -1: a third large (up to 1e6,
// or what the dtype holds), a third in (-1, 0), a third tiny (|x| in [1e-6, 1e-2], where ln
// computed after rounding 1 + x loses the digits).
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct Log1pTraits {
  static constexpr const char *kSubject = "log1p";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Log1p>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    const double largest = std::min(1e6, LargestFinite(t[1].dtype()) / 2);
    std::uniform_real_distribution<double> below_zero(-0.99, -0.01);
    std::uniform_real_distribution<double> tiny_exponent(std::log(1e-6), std::log(1e-2));
    std::uniform_real_distribution<double> large_exponent(std::log(1e-2), std::log(largest));
    for (size_t e = 0; e < t[1].numel(); ++e) {
      double value;
      switch (e % 3) {
        case 0: value = std::exp(large_exponent(rng)); break;
        case 1: value = below_zero(rng); break;
        default: value = std::exp(tiny_exponent(rng)) * (rng() % 2 ? 1 : -1); break;
      }
      t[1].SetAt(e, value);
    }
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Log1p(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-LOG1P-1"}; }
};

using Log1pOp = ElementwiseOp<Log1pTraits>;
INFINICTS_OP_CASES(Log1pOp);
INFINICTS_OP_WORKSPACE_CASES(Log1pOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using Log1pPerf = ElementwisePerf<Log1pTraits>;
INFINICTS_OP_PERF_CASES(Log1pPerf);

}  // namespace
}  // namespace infinicts::op_cases
