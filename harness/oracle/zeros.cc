#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Zeros(const HostTensor &x) {
  return MapUnary(x, [](double) { return 0.0; });
}

}  // namespace infinicts::oracle
