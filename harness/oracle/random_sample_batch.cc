// RandomSampleBatch: each row of a [batch, n] score tensor drawn by RandomSample's rule
// (random_sample.cc) under that row's own parameters, one row after another.
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

std::vector<RandomSampleResult> RandomSampleBatch(const HostTensor &scores, const std::vector<SamplingParameters> &rows) {
  Require(scores.ndim() == 2, "RandomSampleBatch", "scores must be a 2-D tensor [batch, n]");
  Require(scores.shape()[0] == rows.size(), "RandomSampleBatch", "one set of parameters for every row");
  const size_t n = scores.shape()[1];
  const std::vector<double> values = scores.ToDoubles();
  std::vector<RandomSampleResult> results;
  results.reserve(rows.size());
  for (size_t row = 0; row < rows.size(); ++row) {
    const std::vector<double> logits(values.begin() + static_cast<ptrdiff_t>(row * n),
                                     values.begin() + static_cast<ptrdiff_t>((row + 1) * n));
    const SamplingParameters &p = rows[row];
    results.push_back(RandomSample(HostTensor::FromValues(INFINI_DTYPE_F64, {n}, logits), p.random_val, p.topp,
                                   p.topk, p.temperature));
  }
  return results;
}

}  // namespace infinicts::oracle
