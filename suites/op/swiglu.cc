// SwiGLU: c = a · silu(b) = a · b / (1 + e^-b) (spec clauses OP-SWIGLU-1, OP-EW). The gate b
// spans [-6, 6], where silu is far from linear; swapping a and b fails.
// Shapes, layouts and checks: common/elementwise.h.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SwiGLUTraits {
  static constexpr const char *kSubject = "swiglu";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"c", "a", "b"}; }
  static OpCalls Calls() { return OperatorCalls<api::SwiGLU>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillAwayFromZero(t[1], rng, 0.25, 2.0);
    FillAwayFromZero(t[2], rng, 0.25, 6.0);
  }
  // The gate b not at -Inf: the formula gives a·(-Inf)·0 = NaN, the limit 0.
  static std::vector<double> NonFiniteInputs(size_t input) {
    return input == 1 ? NanAndBothInfinities() : NanAndPlusInfinity();
  }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::SwiGLU(t[1], t[2]); }
  static std::vector<std::string> MathClauses() { return {"OP-SWIGLU-1"}; }
};

using SwiGLUOp = ElementwiseOp<SwiGLUTraits>;
INFINICTS_OP_CASES(SwiGLUOp);
INFINICTS_OP_WORKSPACE_CASES(SwiGLUOp);

// Perf: the ffn_swiglu tensor of a Llama layer, [tokens, intermediate].
struct SwiGLUPerfShape {
  static constexpr const char *kPart = "ffn_swiglu";
  static constexpr RowWidth kWidth = RowWidth::kIntermediate;
};
using SwiGLUPerf = ElementwisePerf<SwiGLUTraits, SwiGLUPerfShape>;
INFINICTS_OP_PERF_CASES(SwiGLUPerf);

}  // namespace
}  // namespace infinicts::op_cases
