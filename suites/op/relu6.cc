// Relu6: y = min(max(x, 0), 6) (spec clauses OP-RELU6-1, OP-EW). Magnitudes in [0.25, 12], one in
// eight negative and about half above 6; the result is exact.
// Shapes, layouts and checks: common/elementwise.h.
#include <cmath>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/perf_elementwise.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct Relu6Traits {
  static constexpr const char *kSubject = "relu6";
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls() { return OperatorCalls<api::Relu6>(); }
  static void Fill(std::vector<HostTensor> &t, Rng &rng) {
    FillInputsAwayFromZero(t, rng, 0.25, 12.0);
    // Three in four positive, so that a broadcast input (a few distinct values) still gives
    // more than the bounds; one element inside (0, 6) at least.
    for (size_t e = 0; e < t[1].numel(); ++e) {
      if (e % 4 != 0) t[1].SetAt(e, std::fabs(t[1].GetAt(e)));
    }
    t[1].SetAt(0, 3.0);
  }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) { return oracle::Relu6(t[1]); }
  static std::vector<std::string> MathClauses() { return {"OP-RELU6-1"}; }
};

using Relu6Op = ElementwiseOp<Relu6Traits>;
INFINICTS_OP_CASES(Relu6Op);
INFINICTS_OP_WORKSPACE_CASES(Relu6Op);

// Perf: the ffn_act tensor of a Llama layer, [tokens, intermediate].
using Relu6Perf = ElementwisePerf<Relu6Traits>;
INFINICTS_OP_PERF_CASES(Relu6Perf);

}  // namespace
}  // namespace infinicts::op_cases
