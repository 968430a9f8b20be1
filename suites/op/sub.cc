// Sub: c = a - b (spec clauses OP-SUB-1, OP-EW). Inputs away from zero; a backend computing b - a
// or a + b fails on every element.
// Shapes, layouts and checks: common/elementwise.h.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SubTraits {
  static constexpr const char *kSubject = "sub";
  static constexpr bool kBoundInputs = false;
  // I32 and I64 too, an optional capability checked exactly (docs/spec/op.md "Dtypes").
  static constexpr IntegerOperands kIntegers = IntegerOperands::kSums;
  static std::vector<std::string> Names() { return {"c", "a", "b"}; }
  static OpCalls Calls() { return OperatorCalls<api::Sub>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 2.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Sub(t[1], t[2]); }
  static std::vector<std::string> MathClauses() { return {"OP-SUB-1"}; }
};

using SubOp = ElementwiseOp<SubTraits>;
INFINICTS_OP_CASES(SubOp);
INFINICTS_OP_WORKSPACE_CASES(SubOp);

// Perf: the hidden_states tensor of a Llama layer, [tokens, hidden].
struct SubPerfShape {
  static constexpr const char *kPart = "hidden_states";
  static constexpr RowWidth kWidth = RowWidth::kHidden;
};
using SubPerf = ElementwisePerf<SubTraits, SubPerfShape>;
INFINICTS_OP_PERF_CASES(SubPerf);

}  // namespace
}  // namespace infinicts::op_cases
