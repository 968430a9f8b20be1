#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

// The complementary function itself, not 1 - erf(x): that difference keeps no digits of a
// value near 0 (x beyond 3 or so), where erfc's tail is the answer.
HostTensor Erfc(const HostTensor &x) {
  return MapUnary(x, [](double value) { return std::erfc(value); });
}

}  // namespace infinicts::oracle
