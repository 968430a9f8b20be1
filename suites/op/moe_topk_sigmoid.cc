// MoeTopkSigmoid: per row of gating_output [tokens, experts], the sigmoids of the logits, the
// topk experts of largest sigmoid plus correction_bias into topk_indices (I32) and their
// unbiased sigmoids, renormalised over the topk when renormalize, into topk_weights (F32)
// (spec section OP-MOETOPK). The create call describes every tensor; correction_bias is
// optional.
//
// Data (common/topk_routing_data.h, Topkrouter's rows without its groups): logits in [−4, 4)
// against biases of ±0.25, so the bias reorders experts; rows of few levels, whose equal
// logits and biases only the lower-index rule decides; a quarter of the logits at ±100, where
// e^x / (1 + e^x) is NaN; biases in [−2, −0.95), which push the biased scores below 0; and
// faint rows (logits in [−26, −20)) whose ranking is the bias's and whose renormalised weights
// are ratios of sigmoids of a few 1e-10. Every row is drawn again until its decisive gaps
// exceed 1e-4.
#include "common/moe_topk_cases.h"

namespace infinicts::op_cases {
namespace {

struct MoeTopkSigmoidProblem : Param<MoeTopkSigmoidProblem>, MoeTopkShape {
  RouterRows rows = RouterRows::kRandom;

  std::string Name() const {
    return ShapeNamePart() + "__gating_" + LayoutName(gating_layout) +
           (rows == RouterRows::kRandom ? "" : std::string("__") + RouterRowsName(rows));
  }
  template <class Field>
  void Fields(Field &field) {
    ShapeFields(field);
    field("rows", rows);
  }
};

struct MoeTopkSigmoidOp : MoeTopkTraits<MoeTopkSigmoidOp, MoeTopkSigmoidProblem> {
  using Problem = MoeTopkSigmoidProblem;
  static constexpr const char *kSubject = "moe_topk_sigmoid";
  static constexpr const char *kClausePrefix = "OP-MOETOPKSIGMOID";

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::MoeTopkSigmoid>(std::make_tuple(p.renormalize), std::tuple<>());
  }

  static oracle::TopkrouterResult Route(const Problem &p, const std::vector<HostTensor> &t) {
    return oracle::MoeTopkSigmoid(t[2], p.bias ? &t[3] : nullptr, p.topk, p.renormalize);
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    DrawUntilDecided(
        "MoeTopkSigmoid", p.tokens, p.rows == RouterRows::kFaint, [&] { if (p.bias) FillRouterBias(t[3], rng, p.rows); },
        [&](size_t row) { FillRouterLogitRow(t[2], row, rng, p.rows); }, [&] { return Route(p, t).row_margins; });
  }

  static std::vector<MoeRouterModel> Models();
};

INFINICTS_OP_CASES(MoeTopkSigmoidOp);
INFINICTS_OP_WORKSPACE_CASES(MoeTopkSigmoidOp);

// Perf: Llama-4-Scout's router (16 experts, top-1, not renormalised, no bias) and one of
// DeepSeek-V3's size without its groups (256 experts, top-8, renormalised, with a bias).
std::vector<MoeRouterModel> MoeTopkSigmoidOp::Models() {
  return {{"llama4_scout", 16, 1, false, false}, {"deepseek_v3_ungrouped", 256, 8, true, true}};
}
using MoeTopkSigmoidPerf = OpPerf<MoeTopkWorkload<MoeTopkSigmoidOp>>;
INFINICTS_OP_PERF_CASES(MoeTopkSigmoidPerf);

}  // namespace
}  // namespace infinicts::op_cases
