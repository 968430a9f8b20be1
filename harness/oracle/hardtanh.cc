#include <algorithm>
#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor HardTanh(const HostTensor &x, double min_val, double max_val) {
  return MapUnary(x, [min_val, max_val](double value) {
    return std::isnan(value) ? value : std::min(std::max(value, min_val), max_val);
  });
}

}  // namespace infinicts::oracle
