#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Softsign(const HostTensor &x) {
  return MapUnary(x, [](double value) {
    if (std::isinf(value)) return std::copysign(1.0, value);
    return value / (1.0 + std::fabs(value));
  });
}

}  // namespace infinicts::oracle
