#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor SwiGLU(const HostTensor &a, const HostTensor &b) {
  return MapBinary(a, b, [](double gate_input, double x) { return gate_input * x / (1.0 + std::exp(-x)); },
                   "SwiGLU");
}

}  // namespace infinicts::oracle
