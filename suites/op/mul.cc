// Mul: c = a · b (spec clauses OP-MUL-1, OP-EW). Inputs away from zero, so no product is near 0.
// Shapes, layouts and checks: common/elementwise.h.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct MulTraits {
  static constexpr const char *kSubject = "mul";
  static constexpr bool kBoundInputs = false;
  // I32 and I64 too, an optional capability checked exactly (docs/spec/op.md "Dtypes").
  static constexpr IntegerOperands kIntegers = IntegerOperands::kProducts;
  static std::vector<std::string> Names() { return {"c", "a", "b"}; }
  static OpCalls Calls() { return OperatorCalls<api::Mul>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 2.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Mul(t[1], t[2]); }
  static std::vector<std::string> MathClauses() { return {"OP-MUL-1"}; }
};

using MulOp = ElementwiseOp<MulTraits>;
INFINICTS_OP_CASES(MulOp);
INFINICTS_OP_WORKSPACE_CASES(MulOp);

// Perf: the ffn_gate_mul tensor of a Llama layer, [tokens, intermediate].
struct MulPerfShape {
  static constexpr const char *kPart = "ffn_gate_mul";
  static constexpr RowWidth kWidth = RowWidth::kIntermediate;
};
using MulPerf = ElementwisePerf<MulTraits, MulPerfShape>;
INFINICTS_OP_PERF_CASES(MulPerf);

}  // namespace
}  // namespace infinicts::op_cases
