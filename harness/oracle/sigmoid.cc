#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Sigmoid(const HostTensor &x) {
  return MapUnary(x, [](double value) { return 1.0 / (1.0 + std::exp(-value)); });
}

}  // namespace infinicts::oracle
