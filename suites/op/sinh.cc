// Sinh: y = (e^x − e^−x) / 2 (spec clauses OP-SINH-1, OP-EW). Magnitudes log-uniform in [1e-3, the
// largest input whose sinh the dtype holds] (11 for F16, 89 for BF16, 89.3 for F32 and F64), and
// one element in eight near that bound, past 88.7 where e^x alone overflows F32.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SinhTraits {
  static constexpr const char *kSubject = "sinh";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Sinh>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    const double bound = t[1].dtype() == INFINI_DTYPE_F16 ? 11.0 : t[1].dtype() == INFINI_DTYPE_BF16 ? 89.0 : 89.3;
    FillInputsLogUniform(t, rng, 1e-3, bound);
    std::uniform_real_distribution<double> near_bound(0.995 * bound, bound);
    for (size_t e = 0; e < t[1].numel(); e += 8) t[1].SetAt(e, near_bound(rng) * (rng() % 2 ? 1 : -1));
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Sinh(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-SINH-1"}; }
};

using SinhOp = ElementwiseOp<SinhTraits>;
INFINICTS_OP_CASES(SinhOp);
INFINICTS_OP_WORKSPACE_CASES(SinhOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using SinhPerf = ElementwisePerf<SinhTraits>;
INFINICTS_OP_PERF_CASES(SinhPerf);

}  // namespace
}  // namespace infinicts::op_cases
