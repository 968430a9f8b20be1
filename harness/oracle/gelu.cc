#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

// x/2 · (1 + erf(x/√2)) written as x/2 · erfc(-x/√2): the same function, without the
// cancellation 1 + erf suffers for large negative x.
HostTensor Gelu(const HostTensor &x) {
  return MapUnary(x, [](double value) { return 0.5 * value * std::erfc(-value / std::sqrt(2.0)); });
}

}  // namespace infinicts::oracle
