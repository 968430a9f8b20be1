#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Relu6(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::isnan(value) ? value : std::min(std::max(value, 0.0), 6.0); });
}

}  // namespace infinicts::oracle
