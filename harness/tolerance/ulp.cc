#include "tolerance/ulp.h"

#include <algorithm>
#include <cmath>

#include "tensor/dtype.h"

namespace infinicts {

double UlpOf(infiniDtype_t dtype, double value) {
  if (!IsFloat(dtype)) return 1.0;
  const int mantissa_bits = MantissaBits(dtype);
  const double magnitude = std::min(std::fabs(value), MaxFinite(dtype));
  int exponent = MinNormalExponent(dtype);
  if (magnitude > 0.0) {
    int frexp_exponent;
    std::frexp(magnitude, &frexp_exponent);
    exponent = std::max(frexp_exponent - 1, exponent);
  }
  return std::ldexp(1.0, exponent - mantissa_bits);
}

double UlpError(infiniDtype_t dtype, double expected, double got) {
  return std::fabs(got - expected) / UlpOf(dtype, expected);
}

}  // namespace infinicts
