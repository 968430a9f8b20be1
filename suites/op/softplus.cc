// Softplus: y = x where beta·x > threshold, else ln(1 + e^(beta·x)) / beta (spec clauses OP-
// SOFTPLUS-1, OP-EW). beta 2 and threshold 20, not the defaults (1, 20), so a kernel that ignores
// beta is wrong everywhere; magnitudes log-uniform in [1e-2, 80], so beta·x passes e^x's F32 range
// (88), where a kernel that ignores threshold overflows.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr float kBeta = 2.0f, kThreshold = 20.0f;

struct SoftplusTraits {
  static constexpr const char *kSubject = "softplus";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Softplus>(std::make_tuple(kBeta, kThreshold)); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsLogUniform(t, rng, 1e-2, 80.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Softplus(t[1], kBeta, kThreshold); }
  static std::vector<std::string> MathClauses() { return {"OP-SOFTPLUS-1"}; }
};

using SoftplusOp = ElementwiseOp<SoftplusTraits>;
INFINICTS_OP_CASES(SoftplusOp);
INFINICTS_OP_WORKSPACE_CASES(SoftplusOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using SoftplusPerf = ElementwisePerf<SoftplusTraits>;
INFINICTS_OP_PERF_CASES(SoftplusPerf);

}  // namespace
}  // namespace infinicts::op_cases
