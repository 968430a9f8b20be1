// MoeTopkSoftmax: per row of gating_output [tokens, experts], the softmax of the (soft-capped)
// logits over the row, the topk experts of largest probability plus correction_bias into
// topk_indices (I32) and their unbiased probabilities, renormalised over the topk when
// renormalize, into topk_weights (F32) (spec section OP-MOETOPK). The create call describes
// every tensor; correction_bias is optional.
//
// Data (common/topk_routing_data.h): Topksoftmax's logit rows (distinct levels on a grid,
// rows of few levels whose ties only the lower-index rule decides, rows shifted far out where
// e^x without the max subtraction overflows); biases of the size of the probabilities'
// differences (multiples of 1/(4·experts) up to ±2/experts; three levels in the tie rows),
// so a selection without them picks other experts; soft caps of 30 (Grok's) and 2, which
// fold the logits visibly. Every row is drawn again until its decisive gaps exceed 1e-4.
#include "common/moe_topk_cases.h"

namespace infinicts::op_cases {
namespace {

struct MoeTopkSoftmaxProblem : Param<MoeTopkSoftmaxProblem>, MoeTopkShape {
  float softcap = 0.0f;
  LogitRows rows = LogitRows::kDistinct;

  std::string Name() const {
    return ShapeNamePart() + (softcap != 0.0f ? "__softcap_" + NumberName(softcap) : "") + "__gating_" +
           LayoutName(gating_layout) + (rows == LogitRows::kDistinct ? "" : std::string("__") + LogitRowsName(rows));
  }
  template <class Field>
  void Fields(Field &field) {
    ShapeFields(field);
    field("softcap", softcap);
    field("logits", rows);
  }
};

// Biases on a grid of 1/(4·experts) within ±2/experts, as large as the gaps between a row's
// top probabilities (with 8 experts the largest is about 0.3 and the next about 0.2); tie rows
// take three levels, −4/experts, 0 and 4/experts, so a third of their equal logits keep
// equal biases.
void FillSoftmaxRouterBias(HostTensor &bias, Rng &rng, LogitRows rows) {
  const double unit = 2.0 / static_cast<double>(bias.numel());
  std::uniform_int_distribution<int> eighths(-8, 8), three(-1, 1);
  for (size_t i = 0; i < bias.numel(); ++i) {
    bias.SetAt(i, rows == LogitRows::kTies ? 2.0 * unit * three(rng) : unit * eighths(rng) / 8.0);
  }
}

struct MoeTopkSoftmaxOp : MoeTopkTraits<MoeTopkSoftmaxOp, MoeTopkSoftmaxProblem> {
  using Problem = MoeTopkSoftmaxProblem;
  static constexpr const char *kSubject = "moe_topk_softmax";
  static constexpr const char *kClausePrefix = "OP-MOETOPKSOFTMAX";

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::MoeTopkSoftmax>(std::make_tuple(p.renormalize, p.softcap), std::tuple<>());
  }

  static oracle::TopkrouterResult Route(const Problem &p, const std::vector<HostTensor> &t) {
    return oracle::MoeTopkSoftmax(t[2], p.bias ? &t[3] : nullptr, p.topk, p.renormalize, p.softcap);
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    DrawUntilDecided(
        "MoeTopkSoftmax", p.tokens, false, [&] { if (p.bias) FillSoftmaxRouterBias(t[3], rng, p.rows); },
        [&](size_t row) { FillExpertLogitRow(t[2], row, rng, p.rows); }, [&] { return Route(p, t).row_margins; });
  }

  static std::vector<MoeRouterModel> Models();
};

INFINICTS_OP_CASES(MoeTopkSoftmaxOp);
INFINICTS_OP_WORKSPACE_CASES(MoeTopkSoftmaxOp);

// Perf: Qwen3-30B-A3B's router (128 experts, top-8, renormalised) and Mixtral-8x7B's (8,
// top-2, renormalised), neither with a bias nor a soft cap.
std::vector<MoeRouterModel> MoeTopkSoftmaxOp::Models() {
  return {{"qwen3_30b_a3b", 128, 8, true, false}, {"mixtral_8x7b", 8, 2, true, false}};
}
using MoeTopkSoftmaxPerf = OpPerf<MoeTopkWorkload<MoeTopkSoftmaxOp>>;
INFINICTS_OP_PERF_CASES(MoeTopkSoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
