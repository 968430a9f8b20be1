#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Ones(const HostTensor &x) {
  return MapUnary(x, [](double) { return 1.0; });
}

}  // namespace infinicts::oracle
