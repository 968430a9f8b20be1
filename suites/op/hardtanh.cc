// HardTanh: y = min(max(x, min_val), max_val) (spec clauses OP-HARDTANH-1, OP-EW). Bounds -0.5 and
// 2, not the defaults (-1, 1) and not symmetric, so ignored or swapped bounds show; magnitudes in
// [0.05, 4].
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr float kMinVal = -0.5f, kMaxVal = 2.0f;

struct HardTanhTraits {
  static constexpr const char *kSubject = "hardtanh";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"output", "input"}; }
  static OpCalls Calls() { return OperatorCalls<api::HardTanh>(std::make_tuple(kMinVal, kMaxVal)); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.05, 4.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::HardTanh(t[1], kMinVal, kMaxVal); }
  static std::vector<std::string> MathClauses() { return {"OP-HARDTANH-1"}; }
};

using HardTanhOp = ElementwiseOp<HardTanhTraits>;
INFINICTS_OP_CASES(HardTanhOp);
INFINICTS_OP_WORKSPACE_CASES(HardTanhOp);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using HardTanhPerf = ElementwisePerf<HardTanhTraits>;
INFINICTS_OP_PERF_CASES(HardTanhPerf);

}  // namespace
}  // namespace infinicts::op_cases
