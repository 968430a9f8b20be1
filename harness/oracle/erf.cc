#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Erf(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::erf(value); });
}

}  // namespace infinicts::oracle
