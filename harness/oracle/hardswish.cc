#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor HardSwish(const HostTensor &x) {
  return MapUnary(x, [](double value) {
    if (std::isnan(value)) return value;
    const double gate = std::min(std::max(value + 3.0, 0.0), 6.0);
    return gate == 0.0 ? 0.0 : value * gate / 6.0;
  });
}

}  // namespace infinicts::oracle
