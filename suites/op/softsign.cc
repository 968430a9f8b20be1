// Softsign: y = x / (1 + |x|) (spec clauses OP-SOFTSIGN-1, OP-EW). Magnitudes log-uniform in [1e-3,
// 1e4].
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SoftsignTraits {
  static constexpr const char *kSubject = "softsign";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Softsign>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsLogUniform(t, rng, 1e-3, 1e4);
  }
  // ±Inf: the formula gives Inf / Inf = NaN, the limit ±1
  static std::vector<double> NonFiniteInputs(size_t) { return {std::nan("")}; }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Softsign(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-SOFTSIGN-1"}; }
};

using SoftsignOp = ElementwiseOp<SoftsignTraits>;
INFINICTS_OP_CASES(SoftsignOp);
INFINICTS_OP_WORKSPACE_CASES(SoftsignOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using SoftsignPerf = ElementwisePerf<SoftsignTraits>;
INFINICTS_OP_PERF_CASES(SoftsignPerf);

}  // namespace
}  // namespace infinicts::op_cases
