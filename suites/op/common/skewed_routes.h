// Routings for the MoE bookkeeping operators' cases (MoeAlign, PrepareMoeInput): each token's
// topk distinct experts, drawn with a skew over a shuffled order (weight 1 / rank^1.2), a
// quarter of the experts (from 8 on) never drawn, so a few experts take most slots and some
// none, as a trained router's load looks.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "tensor/generate.h"

namespace infinicts::op_cases {

// routes[t][j]: token t's j-th expert, distinct within a token (topk ≤ experts).
inline std::vector<std::vector<size_t>> SkewedRoutes(size_t tokens, size_t topk, size_t experts, Rng &rng) {
  std::vector<size_t> order(experts);
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<double> weight(experts, 0.0);
  const size_t unused = experts >= 8 ? experts / 4 : 0;
  for (size_t r = 0; r + unused < experts; ++r) weight[order[r]] = 1.0 / std::pow(static_cast<double>(r + 1), 1.2);
  std::vector<std::vector<size_t>> routes(tokens);
  for (std::vector<size_t> &row : routes) {
    std::vector<double> w = weight;
    for (size_t j = 0; j < topk; ++j) {
      // Fewer drawable experts than topk: the unused ones fill up the row.
      if (std::all_of(w.begin(), w.end(), [](double x) { return x == 0.0; })) {
        for (size_t e = 0; e < experts; ++e) {
          if (std::find(row.begin(), row.end(), e) == row.end()) w[e] = 1.0;
        }
      }
      std::discrete_distribution<size_t> draw(w.begin(), w.end());
      const size_t e = draw(rng);
      row.push_back(e);
      w[e] = 0.0;
    }
  }
  return routes;
}

}  // namespace infinicts::op_cases
