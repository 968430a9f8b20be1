// Topkrouter (docs/spec/op.md OP-TOPKROUTER-3, -4): DeepSeek-V3's routing, as InfiniCore's
// CPU operator does it (n_routed_experts 256, n_group 8, topk_group 4, norm_topk_prob on).
// Per row of x [tokens, 256]:
//   s_i = 1 / (1 + e^(-x_i))                     the expert's score
//   b_i = s_i + correction_bias_i                its biased score, which only selects
//   group g holds experts [32g, 32g + 32); its score is the sum of its two largest b
//   the 4 groups of largest score are kept (ties: lower group index first)
//   c_i = b_i in a kept group, 0 elsewhere       the selection score (0, not -inf: a kept
//                                                expert with b_i < 0 ranks below the others)
//   the topk experts of largest c, largest first (ties: lower index first)
//   values = routed_scaling_factor · s_e / (Σ_selected s + 1e-9), from the unbiased scores.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

constexpr size_t kExperts = 256, kGroups = 8, kGroupSize = 32, kKeptGroups = 4;
constexpr double kSumEpsilon = 1e-9;

}  // namespace

TopkrouterResult Topkrouter(const HostTensor &x, const HostTensor &correction_bias, float routed_scaling_factor,
                            size_t topk) {
  Require(x.ndim() == 2 && x.shape()[1] == kExperts, "Topkrouter",
          "x must be [tokens, 256], got " + ShapeText(x.shape()));
  Require(correction_bias.ndim() == 1 && correction_bias.shape()[0] == kExperts, "Topkrouter",
          "correction_bias must be [256], got " + ShapeText(correction_bias.shape()));
  Require(topk >= 1 && topk <= kExperts, "Topkrouter", "topk must lie in [1, 256], got " + std::to_string(topk));
  const size_t tokens = x.shape()[0];
  const std::vector<double> logits = x.ToDoubles(), bias = correction_bias.ToDoubles();
  auto is_nan = [](double v) { return std::isnan(v); };
  Require(std::none_of(logits.begin(), logits.end(), is_nan) && std::none_of(bias.begin(), bias.end(), is_nan),
          "Topkrouter", "x and correction_bias must not hold NaN");
  const double scale = static_cast<double>(routed_scaling_factor);

  TopkrouterResult result;
  std::vector<double> values(tokens * topk), indices(tokens * topk);
  result.row_margins.assign(tokens, std::numeric_limits<double>::infinity());
  std::vector<double> score(kExperts), biased(kExperts), choice(kExperts);
  std::vector<size_t> ranking(kExperts);
  for (size_t r = 0; r < tokens; ++r) {
    const double *row = logits.data() + r * kExperts;
    for (size_t i = 0; i < kExperts; ++i) {
      score[i] = 1.0 / (1.0 + std::exp(-row[i]));  // e^(-x) = Inf gives 0, not NaN
      biased[i] = score[i] + bias[i];
    }
    // Two experts whose (x, bias) are equal tie in any arithmetic; others only by accident.
    auto same_inputs = [&](size_t a, size_t b) { return row[a] == row[b] && bias[a] == bias[b]; };
    double &margin = result.row_margins[r];

    // Each group's two largest biased scores (the first such on ties) and their sum.
    std::vector<double> group_score(kGroups);
    std::vector<std::pair<size_t, size_t>> group_top(kGroups);
    for (size_t g = 0; g < kGroups; ++g) {
      std::vector<size_t> members(kGroupSize);
      std::iota(members.begin(), members.end(), g * kGroupSize);
      std::stable_sort(members.begin(), members.end(), [&](size_t a, size_t b) { return biased[a] > biased[b]; });
      group_top[g] = {members[0], members[1]};
      group_score[g] = biased[members[0]] + biased[members[1]];
    }
    std::vector<size_t> group_ranking(kGroups);
    std::iota(group_ranking.begin(), group_ranking.end(), size_t{0});
    std::stable_sort(group_ranking.begin(), group_ranking.end(),
                     [&](size_t a, size_t b) { return group_score[a] > group_score[b]; });
    std::vector<bool> kept(kGroups, false);
    for (size_t j = 0; j < kKeptGroups; ++j) kept[group_ranking[j]] = true;
    {
      const size_t last_kept = group_ranking[kKeptGroups - 1], first_dropped = group_ranking[kKeptGroups];
      const auto [a1, a2] = group_top[last_kept];
      const auto [b1, b2] = group_top[first_dropped];
      const bool same_pair =
          (same_inputs(a1, b1) && same_inputs(a2, b2)) || (same_inputs(a1, b2) && same_inputs(a2, b1));
      if (!same_pair) margin = std::min(margin, group_score[last_kept] - group_score[first_dropped]);
    }

    for (size_t i = 0; i < kExperts; ++i) choice[i] = kept[i / kGroupSize] ? biased[i] : 0.0;
    std::iota(ranking.begin(), ranking.end(), size_t{0});
    std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return choice[a] > choice[b]; });
    // Every neighbouring pair down to rank topk (the order within the selection and its edge).
    for (size_t j = 0; j < topk && j + 1 < kExperts; ++j) {
      const size_t a = ranking[j], b = ranking[j + 1];
      const bool a_kept = kept[a / kGroupSize], b_kept = kept[b / kGroupSize];
      const bool exact_tie = (!a_kept && !b_kept) || (a_kept && b_kept && same_inputs(a, b));
      if (!exact_tie) margin = std::min(margin, choice[a] - choice[b]);
    }

    double selected_sum = kSumEpsilon;
    for (size_t j = 0; j < topk; ++j) selected_sum += score[ranking[j]];
    for (size_t j = 0; j < topk; ++j) {
      values[r * topk + j] = scale * score[ranking[j]] / selected_sum;
      indices[r * topk + j] = static_cast<double>(ranking[j]);
    }
  }
  result.values = F64Tensor({tokens, topk}, values);
  result.indices = F64Tensor({tokens, topk}, indices);
  return result;
}

}  // namespace infinicts::oracle
