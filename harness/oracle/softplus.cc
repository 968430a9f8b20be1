#include <cmath>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Softplus(const HostTensor &x, double beta, double threshold) {
  return MapUnary(x, [beta, threshold](double value) {
    const double scaled = beta * value;
    if (scaled > threshold) return value;
    // ln(1 + e^s) = max(s, 0) + ln(1 + e^-|s|): no overflow for any s.
    return (std::max(scaled, 0.0) + std::log1p(std::exp(-std::fabs(scaled)))) / beta;
  });
}

}  // namespace infinicts::oracle
