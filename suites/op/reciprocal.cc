// Reciprocal: y = 1 / x (spec clauses OP-RECIPROCAL-1, OP-EW). Magnitudes log-uniform in [1e-3,
// 1e3].
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct ReciprocalTraits {
  static constexpr const char *kSubject = "reciprocal";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Reciprocal>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsLogUniform(t, rng, 1e-3, 1e3);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Reciprocal(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-RECIPROCAL-1"}; }
};

using ReciprocalOp = ElementwiseOp<ReciprocalTraits>;
INFINICTS_OP_CASES(ReciprocalOp);
INFINICTS_OP_WORKSPACE_CASES(ReciprocalOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using ReciprocalPerf = ElementwisePerf<ReciprocalTraits>;
INFINICTS_OP_PERF_CASES(ReciprocalPerf);

}  // namespace
}  // namespace infinicts::op_cases
