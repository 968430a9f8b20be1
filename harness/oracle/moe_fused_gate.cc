// MoeFusedGate (docs/spec/op.md OP-MOEFUSEDGATE-5, -6): SGLang's grouped sigmoid router.
// Per row of input [tokens, E], with G groups of V = E / G consecutive experts, K of them kept,
// R = topk − S routed experts and S fused shared ones:
//   s_i = 1 / (1 + e^(-x_i))                      the expert's score
//   c_i = s_i + bias_i                             its biased score, which only selects
//   group g holds experts [gV, gV + V); its score is the sum of its two largest c (its one c
//   when V = 1); the K groups of largest score are kept (ties: lower group index first)
//   the R experts of largest c among the kept groups' (the others never), largest first (ties:
//   lower index first), weighted s_e / Σ_selected s
//   then the shared experts E, E + 1, …, E + S − 1, weighted 1 / routed_scaling_factor
//   every weight times routed_scaling_factor when apply_routed_scaling_factor_on_output.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

constexpr const char *kOp = "MoeFusedGate";

}  // namespace

TopkrouterResult MoeFusedGate(const HostTensor &input, const HostTensor &bias, size_t num_expert_group,
                              size_t topk_group, size_t topk, size_t num_fused_shared_experts,
                              double routed_scaling_factor, bool apply_routed_scaling_factor_on_output) {
  Require(input.ndim() == 2, kOp, "input must be 2-D [tokens, experts], got " + ShapeText(input.shape()));
  const size_t tokens = input.shape()[0], experts = input.shape()[1];
  Require(bias.ndim() == 1 && bias.shape()[0] == experts, kOp,
          "bias must be [" + std::to_string(experts) + "], got " + ShapeText(bias.shape()));
  const size_t groups = num_expert_group, kept_groups = topk_group;
  Require(groups >= 1 && experts >= groups && experts % groups == 0, kOp,
          "num_expert_group must divide the " + std::to_string(experts) + " experts, got " + std::to_string(groups));
  const size_t group_size = experts / groups;
  Require(kept_groups >= 1 && kept_groups <= groups, kOp,
          "topk_group must lie in [1, " + std::to_string(groups) + "], got " + std::to_string(kept_groups));
  Require(topk > num_fused_shared_experts, kOp, "topk must exceed num_fused_shared_experts");
  const size_t routed = topk - num_fused_shared_experts;
  Require(routed <= kept_groups * group_size, kOp,
          "the " + std::to_string(routed) + " routed experts must fit in the kept groups' " +
              std::to_string(kept_groups * group_size));
  const std::vector<double> logits = input.ToDoubles(), offsets = bias.ToDoubles();
  auto is_nan = [](double v) { return std::isnan(v); };
  Require(std::none_of(logits.begin(), logits.end(), is_nan) && std::none_of(offsets.begin(), offsets.end(), is_nan),
          kOp, "input and bias must not hold NaN");
  const double output_scale = apply_routed_scaling_factor_on_output ? routed_scaling_factor : 1.0;
  const double shared_weight = apply_routed_scaling_factor_on_output ? 1.0 : 1.0 / routed_scaling_factor;

  TopkrouterResult result;
  std::vector<double> weights(tokens * topk);
  std::vector<int64_t> indices(tokens * topk);
  result.row_margins.assign(tokens, std::numeric_limits<double>::infinity());
  std::vector<double> score(experts), biased(experts), group_score(groups);
  std::vector<std::pair<size_t, size_t>> group_top(groups);
  for (size_t r = 0; r < tokens; ++r) {
    const double *row = logits.data() + r * experts;
    for (size_t i = 0; i < experts; ++i) {
      score[i] = 1.0 / (1.0 + std::exp(-row[i]));  // e^(-x) = Inf gives 0, not NaN
      biased[i] = score[i] + offsets[i];
    }
    // Two experts of equal input and bias tie in any arithmetic; others only by accident.
    auto same_inputs = [&](size_t a, size_t b) { return row[a] == row[b] && offsets[a] == offsets[b]; };
    double &margin = result.row_margins[r];

    // Each group's two largest biased scores (the first such on ties) and their sum.
    for (size_t g = 0; g < groups; ++g) {
      std::vector<size_t> members(group_size);
      std::iota(members.begin(), members.end(), g * group_size);
      std::stable_sort(members.begin(), members.end(), [&](size_t a, size_t b) { return biased[a] > biased[b]; });
      group_top[g] = {members[0], group_size > 1 ? members[1] : members[0]};
      group_score[g] = biased[members[0]] + (group_size > 1 ? biased[members[1]] : 0.0);
    }
    std::vector<size_t> group_ranking(groups);
    std::iota(group_ranking.begin(), group_ranking.end(), size_t{0});
    std::stable_sort(group_ranking.begin(), group_ranking.end(),
                     [&](size_t a, size_t b) { return group_score[a] > group_score[b]; });
    std::vector<bool> kept(groups, false);
    for (size_t j = 0; j < kept_groups; ++j) kept[group_ranking[j]] = true;
    // Every kept group against every dropped one, unless their two best are the same inputs
    // (then only the tie rule separates them, in any arithmetic).
    for (size_t a : group_ranking) {
      for (size_t b : group_ranking) {
        if (!kept[a] || kept[b]) continue;
        const auto [a1, a2] = group_top[a];
        const auto [b1, b2] = group_top[b];
        const bool same_pair =
            (same_inputs(a1, b1) && same_inputs(a2, b2)) || (same_inputs(a1, b2) && same_inputs(a2, b1));
        if (!same_pair) margin = std::min(margin, group_score[a] - group_score[b]);
      }
    }

    // The kept groups' experts in index order, ranked by c (stable: ties to the lower index).
    std::vector<size_t> ranking;
    for (size_t i = 0; i < experts; ++i) {
      if (kept[i / group_size]) ranking.push_back(i);
    }
    std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return biased[a] > biased[b]; });
    // Every neighbouring pair down to rank R (the order within the selection and its edge).
    for (size_t j = 0; j < routed && j + 1 < ranking.size(); ++j) {
      const size_t a = ranking[j], b = ranking[j + 1];
      if (!same_inputs(a, b)) margin = std::min(margin, biased[a] - biased[b]);
    }

    double selected_sum = 0.0;
    for (size_t j = 0; j < routed; ++j) selected_sum += score[ranking[j]];
    for (size_t j = 0; j < routed; ++j) {
      weights[r * topk + j] = output_scale * score[ranking[j]] / selected_sum;
      indices[r * topk + j] = static_cast<int64_t>(ranking[j]);
    }
    for (size_t m = 0; m < num_fused_shared_experts; ++m) {
      weights[r * topk + routed + m] = shared_weight;
      indices[r * topk + routed + m] = static_cast<int64_t>(experts + m);
    }
  }
  result.values = F64Tensor({tokens, topk}, weights);
  result.indices = I64Tensor({tokens, topk}, indices);
  return result;
}

}  // namespace infinicts::oracle
