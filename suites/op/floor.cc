// Floor: y = ⌊x⌋ (spec clauses OP-FLOOR-1, OP-EW). Magnitudes log-uniform in [0.1, 1e12] (6e4 for
// F16), both signs: negative non-integers (where truncation is wrong), values past 2^31 (where a
// cast through int32 overflows); every fifth element an integer and every seventh one and a half
// (where rounding is wrong). The result is exact.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct FloorTraits {
  static constexpr const char *kSubject = "floor";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"output", "input"}; }
  static OpCalls Calls() { return OperatorCalls<api::Floor>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    const double largest = t[1].dtype() == INFINI_DTYPE_F16 ? 6e4 : 1e12;
    FillInputsLogUniform(t, rng, 0.1, largest);
    for (size_t e = 0; e < t[1].numel(); ++e) {
      const double value = t[1].GetAt(e);
      if (e % 5 == 0) t[1].SetAt(e, std::round(value));
      else if (e % 7 == 0) t[1].SetAt(e, std::round(value) + (value < 0 ? -0.5 : 0.5));
    }
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Floor(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-FLOOR-1"}; }
};

using FloorOp = ElementwiseOp<FloorTraits>;
INFINICTS_OP_CASES(FloorOp);
INFINICTS_OP_WORKSPACE_CASES(FloorOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using FloorPerf = ElementwisePerf<FloorTraits>;
INFINICTS_OP_PERF_CASES(FloorPerf);

}  // namespace
}  // namespace infinicts::op_cases
