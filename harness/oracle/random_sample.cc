// InfiniCore's sampling rule (test/infiniop/random_sample.py and its CPU operator), over
// scores s_0 .. s_{n-1} (logits, not probabilities):
//   - random_val == 0, topp <= 0, topk <= 1 or temperature == 0: argmax, the first index of
//     the largest score. (InfiniCore tests `topp == 0` and `topk == 1`; smaller values have
//     no other meaning, so they are taken the same way.)
//   - otherwise sort the scores in descending order and, in that order, take
//       p_i = exp((s_i - s_max) / temperature),   c_i = p_0 + ... + p_i,
//       limit = random_val · min(c_{k-1}, topp · c_{n-1}),   k = min(topk, n);
//     the result is the original index of the first sorted position i with c_i >= limit.
//     (InfiniCore's test normalises by c_{n-1} first, which leaves the choice unchanged.)
// Ties in the sort order are broken towards the lower index; InfiniCore leaves them
// unspecified, so a tie at the chosen score makes the case ambiguous (margin 0).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

RandomSampleResult RandomSample(const HostTensor &scores, float random_val, float topp, int topk, float temperature) {
  Require(scores.ndim() == 1 && scores.numel() > 0, "RandomSample", "scores must be a non-empty 1-D tensor");
  const std::vector<double> values = scores.ToDoubles();
  Require(std::none_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }), "RandomSample",
          "scores must not hold NaN");
  const size_t n = values.size();
  auto ties_with = [&](size_t chosen) {
    return std::count(values.begin(), values.end(), values[chosen]) > 1;
  };

  if (random_val == 0.0f || topp <= 0.0f || topk <= 1 || temperature == 0.0f) {
    const size_t best = static_cast<size_t>(std::max_element(values.begin(), values.end()) - values.begin());
    RandomSampleResult result;
    result.index = static_cast<int64_t>(best);
    result.argmax = true;
    result.margin = ties_with(best) ? 0.0 : std::numeric_limits<double>::infinity();
    return result;
  }

  Require(random_val > 0.0f && random_val <= 1.0f, "RandomSample", "random_val must lie in [0, 1]");
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] > values[b]; });

  const double max_score = values[order[0]];
  std::vector<double> cumulative(n);
  double running = 0.0;
  for (size_t i = 0; i < n; ++i) {
    running += std::exp((values[order[i]] - max_score) / static_cast<double>(temperature));
    cumulative[i] = running;
  }
  const size_t k = std::min(static_cast<size_t>(topk), n);
  const double limit =
      static_cast<double>(random_val) * std::min(cumulative[k - 1], static_cast<double>(topp) * cumulative[n - 1]);

  size_t position = 0;
  while (position + 1 < n && cumulative[position] < limit) ++position;

  RandomSampleResult result;
  result.index = static_cast<int64_t>(order[position]);
  const double below = position == 0 ? 0.0 : cumulative[position - 1];
  result.margin = std::min(limit - below, cumulative[position] - limit) / cumulative[n - 1];
  if (ties_with(order[position])) result.margin = 0.0;
  return result;
}

}  // namespace infinicts::oracle
