// Zeros: y = 0 everywhere, whatever x holds (spec clauses OP-ZEROS-1, OP-EW). Any inputs: their
// values must not reach y (the nan_inf cases put NaN and Inf there); the output starts as NaN, so
// the constant expected output still discriminates.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct ZerosTraits {
  static constexpr const char *kSubject = "zeros";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kAnyValues;
  static constexpr bool kConstantOutput = true;  // y starts as NaN: a constant expectation still discriminates
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Zeros>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 4.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Zeros(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-ZEROS-1"}; }
};

using ZerosOp = ElementwiseOp<ZerosTraits>;
INFINICTS_OP_CASES(ZerosOp);
INFINICTS_OP_WORKSPACE_CASES(ZerosOp);

// Perf: the hidden_state tensor of a Llama layer, [tokens, hidden].
struct ZerosPerfShape {
  static constexpr const char *kPart = "hidden_state";
  static constexpr RowWidth kWidth = RowWidth::kHidden;
};
using ZerosPerf = ElementwisePerf<ZerosTraits, ZerosPerfShape>;
INFINICTS_OP_PERF_CASES(ZerosPerf);

}  // namespace
}  // namespace infinicts::op_cases
