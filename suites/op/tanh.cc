// Tanh: y = tanh(x) (spec clauses OP-TANH-1, OP-EW). Magnitudes log-uniform in [1e-3, 60]: beyond
// 44 e^(2x) overflows F32, and (e^2x − 1) / (e^2x + 1) gives NaN there.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct TanhTraits {
  static constexpr const char *kSubject = "tanh";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Tanh>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsLogUniform(t, rng, 1e-3, 60.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Tanh(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-TANH-1"}; }
};

using TanhOp = ElementwiseOp<TanhTraits>;
INFINICTS_OP_CASES(TanhOp);
INFINICTS_OP_WORKSPACE_CASES(TanhOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using TanhPerf = ElementwisePerf<TanhTraits>;
INFINICTS_OP_PERF_CASES(TanhPerf);

}  // namespace
}  // namespace infinicts::op_cases
