#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Reciprocal(const HostTensor &x) {
  return MapUnary(x, [](double value) { return 1.0 / value; });
}

}  // namespace infinicts::oracle
