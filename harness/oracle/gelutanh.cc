#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor GeluTanh(const HostTensor &x) {
  const double sqrt_2_over_pi = std::sqrt(2.0 / M_PI);
  return MapUnary(x, [sqrt_2_over_pi](double value) {
    if (value == -HUGE_VAL) return 0.0;
    return 0.5 * value * (1.0 + std::tanh(sqrt_2_over_pi * (value + 0.044715 * value * value * value)));
  });
}

}  // namespace infinicts::oracle
