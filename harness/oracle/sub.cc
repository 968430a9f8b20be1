#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Sub(const HostTensor &a, const HostTensor &b) {
  return MapBinary(a, b, [](double x, double y) { return x - y; }, "Sub");
}

}  // namespace infinicts::oracle
