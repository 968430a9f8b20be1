// Erf: y = erf(x) (spec clauses OP-ERF-1, OP-EW). Magnitudes log-uniform in [1e-3, 6]: the small
// ones where erf(x) ≈ 2x/√π, the large where it saturates.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct ErfTraits {
  static constexpr const char *kSubject = "erf";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Erf>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsLogUniform(t, rng, 1e-3, 6.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Erf(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-ERF-1"}; }
};

using ErfOp = ElementwiseOp<ErfTraits>;
INFINICTS_OP_CASES(ErfOp);
INFINICTS_OP_WORKSPACE_CASES(ErfOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using ErfPerf = ElementwisePerf<ErfTraits>;
INFINICTS_OP_PERF_CASES(ErfPerf);

}  // namespace
}  // namespace infinicts::op_cases
