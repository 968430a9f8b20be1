#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Tanh(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::tanh(value); });
}

}  // namespace infinicts::oracle
