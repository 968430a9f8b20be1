#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor QuickGelu(const HostTensor &x) {
  return MapUnary(x, [](double value) {
    if (value == -HUGE_VAL) return 0.0;
    return value / (1.0 + std::exp(-1.702 * value));
  });
}

}  // namespace infinicts::oracle
