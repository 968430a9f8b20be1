#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Sinh(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::sinh(value); });
}

}  // namespace infinicts::oracle
