#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Relu(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::isnan(value) || value > 0.0 ? value : 0.0; });
}

}  // namespace infinicts::oracle
