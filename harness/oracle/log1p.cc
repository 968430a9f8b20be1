#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Log1p(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::log1p(value); });
}

}  // namespace infinicts::oracle
