#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Clip(const HostTensor &x, const HostTensor &min_val, const HostTensor &max_val) {
  RequireSameShape(x, min_val, "Clip", "x", "min_val");
  RequireSameShape(x, max_val, "Clip", "x", "max_val");
  std::vector<double> values = x.ToDoubles();
  const std::vector<double> lows = min_val.ToDoubles();
  const std::vector<double> highs = max_val.ToDoubles();
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i])) continue;
    double clipped = values[i] < lows[i] ? lows[i] : values[i];
    if (clipped > highs[i]) clipped = highs[i];  // applied last: the upper bound wins
    values[i] = clipped;
  }
  return F64Tensor(x.shape(), values);
}

}  // namespace infinicts::oracle
