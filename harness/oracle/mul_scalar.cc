// MulScalar (docs/spec/op.md OP-MULSCALAR-3): output = alpha · input, in fp64.
#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor MulScalar(const HostTensor &input, double alpha) {
  return MapUnary(input, [alpha](double x) { return alpha * x; });
}

}  // namespace infinicts::oracle
