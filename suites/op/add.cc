// Add: c = a + b (spec clauses OP-ADD-1, OP-EW). Inputs away from zero (sums that cancel still
// leave most outputs far above atol).
// Shapes, layouts and checks: common/elementwise.h.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct AddTraits {
  static constexpr const char *kSubject = "add";
  static constexpr bool kBoundInputs = false;
  // I32 and I64 too, an optional capability checked exactly (docs/spec/op.md "Dtypes").
  static constexpr IntegerOperands kIntegers = IntegerOperands::kSums;
  static std::vector<std::string> Names() { return {"c", "a", "b"}; }
  static OpCalls Calls() { return OperatorCalls<api::Add>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 2.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Add(t[1], t[2]); }
  static std::vector<std::string> MathClauses() { return {"OP-ADD-1"}; }
};

using AddOp = ElementwiseOp<AddTraits>;
INFINICTS_OP_CASES(AddOp);
INFINICTS_OP_WORKSPACE_CASES(AddOp);

// Perf: the residual_add tensor of a Llama layer, [tokens, hidden].
struct AddPerfShape {
  static constexpr const char *kPart = "residual_add";
  static constexpr RowWidth kWidth = RowWidth::kHidden;
};
using AddPerf = ElementwisePerf<AddTraits, AddPerfShape>;
INFINICTS_OP_PERF_CASES(AddPerf);

}  // namespace
}  // namespace infinicts::op_cases
