#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Floor(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::floor(value); });
}

}  // namespace infinicts::oracle
