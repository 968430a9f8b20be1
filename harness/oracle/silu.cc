#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Silu(const HostTensor &x) {
  return MapUnary(x, [](double value) { return value / (1.0 + std::exp(-value)); });
}

}  // namespace infinicts::oracle
