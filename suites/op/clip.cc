// Clip: y = max(min(x, max_val), min_val), with the bounds as tensors of y's shape (spec
// clauses OP-CLIP-1, OP-EW). Bounds keep min_val < max_val (the spec leaves the other case
// open); x spans beyond both, so every case clips on both sides and leaves some values alone.
// The layout sets add bounds that broadcast one value through all-zero strides.
#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct ClipTraits {
  static constexpr const char *kSubject = "clip";
  static constexpr bool kBoundInputs = true;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x", "min_val", "max_val"}; }
  static OpCalls Calls() { return OperatorCalls<api::Clip>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillAwayFromZero(t[1], rng, 0.25, 3.0);
    FillUniform(t[2], rng, -1.5, -0.5);
    FillUniform(t[3], rng, 0.5, 1.5);
  }
  // x only: a NaN bound is not specified.
  static std::vector<double> NonFiniteInputs(size_t input) {
    return input == 1 ? NanAndBothInfinities() : std::vector<double>{};
  }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Clip(t[1], t[2], t[3]); }
  static std::vector<std::string> MathClauses() { return {"OP-CLIP-1"}; }
};

using ClipOp = ElementwiseOp<ClipTraits>;
INFINICTS_OP_CASES(ClipOp);
INFINICTS_OP_WORKSPACE_CASES(ClipOp);

// Perf: the hidden_clamp tensor of a Llama layer, [tokens, hidden].
struct ClipPerfShape {
  static constexpr const char *kPart = "hidden_clamp";
  static constexpr RowWidth kWidth = RowWidth::kHidden;
};
using ClipPerf = ElementwisePerf<ClipTraits, ClipPerfShape>;
INFINICTS_OP_PERF_CASES(ClipPerf);

}  // namespace
}  // namespace infinicts::op_cases
