// Silu: y = x / (1 + e^-x) (spec clauses OP-SILU-1, OP-EW). Inputs in ±[0.25, 8], across the
// curved part and into the tails.
// Shapes, layouts and checks: common/elementwise.h.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SiluTraits {
  static constexpr const char *kSubject = "silu";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Silu>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 8.0);
  }
  // -Inf: the formula gives -Inf·0 = NaN, the limit 0
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndPlusInfinity(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Silu(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-SILU-1"}; }
};

using SiluOp = ElementwiseOp<SiluTraits>;
INFINICTS_OP_CASES(SiluOp);
INFINICTS_OP_WORKSPACE_CASES(SiluOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using SiluPerf = ElementwisePerf<SiluTraits>;
INFINICTS_OP_PERF_CASES(SiluPerf);

}  // namespace
}  // namespace infinicts::op_cases
