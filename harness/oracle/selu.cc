#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Selu(const HostTensor &x) {
  // The constants of Klambauer et al., "Self-Normalizing Neural Networks" (2017).
  const double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
  return MapUnary(x, [=](double value) { return value > 0.0 ? scale * value : scale * alpha * std::expm1(value); });
}

}  // namespace infinicts::oracle
