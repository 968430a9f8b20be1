// Topksoftmax (docs/spec/op.md OP-TOPKSOFTMAX-3, -4), per row of x [tokens, experts]:
//   p_i = e^(x_i - max) / Σ_j e^(x_j - max)          over the whole row
//   the experts ranked by x_i, largest first, ties to the lower index (p is increasing in x,
//   so this is the ranking of p); the first topk of them in that order
//   values = p of each, or with norm != 0 p / Σ_selected p.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

TopkRoutingResult Topksoftmax(const HostTensor &x, size_t topk, int norm) {
  Require(x.ndim() == 2, "Topksoftmax", "x must be 2-D [tokens, experts], got " + ShapeText(x.shape()));
  const size_t tokens = x.shape()[0], experts = x.shape()[1];
  Require(topk >= 1 && topk <= experts, "Topksoftmax",
          "topk must lie in [1, " + std::to_string(experts) + "], got " + std::to_string(topk));
  const std::vector<double> logits = x.ToDoubles();
  Require(std::none_of(logits.begin(), logits.end(), [](double v) { return std::isnan(v); }), "Topksoftmax",
          "x must not hold NaN");

  std::vector<double> values(tokens * topk), indices(tokens * topk);
  std::vector<size_t> ranking(experts);
  for (size_t r = 0; r < tokens; ++r) {
    const double *row = logits.data() + r * experts;
    const double max = *std::max_element(row, row + experts);
    double row_sum = 0.0;
    for (size_t i = 0; i < experts; ++i) row_sum += std::exp(row[i] - max);
    std::iota(ranking.begin(), ranking.end(), size_t{0});
    // stable_sort keeps equal logits in index order: ties go to the lower index.
    std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return row[a] > row[b]; });

    std::vector<double> probability(topk);
    double selected_sum = 0.0;
    for (size_t j = 0; j < topk; ++j) {
      probability[j] = std::exp(row[ranking[j]] - max) / row_sum;
      selected_sum += probability[j];
    }
    for (size_t j = 0; j < topk; ++j) {
      values[r * topk + j] = norm != 0 ? probability[j] / selected_sum : probability[j];
      indices[r * topk + j] = static_cast<double>(ranking[j]);
    }
  }
  return {F64Tensor({tokens, topk}, values), F64Tensor({tokens, topk}, indices)};
}

}  // namespace infinicts::oracle
