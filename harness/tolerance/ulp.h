// Units in the last place of a dtype, for the max_ulp metric.
#pragma once

#include "infinicore.h"

namespace infinicts {

// The spacing of `dtype`'s representable numbers at |value| (the gap from |value|'s binade
// start to the next number): 2^(floor(log2|value|) - mantissa_bits), never below the
// subnormal spacing, and taken at the largest finite number beyond it. 1 for integers.
double UlpOf(infiniDtype_t dtype, double value);

// |got - expected| in ulps of `dtype` at `expected`: a correctly rounded result is within 0.5.
double UlpError(infiniDtype_t dtype, double expected, double got);

}  // namespace infinicts
