#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Add(const HostTensor &a, const HostTensor &b) {
  return MapBinary(a, b, [](double x, double y) { return x + y; }, "Add");
}

}  // namespace infinicts::oracle
