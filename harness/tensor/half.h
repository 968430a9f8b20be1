// Conversions between double/float and the 16-bit float formats F16 (IEEE binary16:
// 1 sign, 5 exponent, 10 mantissa bits) and BF16 (1 sign, 8 exponent, 7 mantissa bits).
// Encoding rounds to nearest, ties to even, keeps subnormals (no flush to zero), turns
// values past the largest finite number into Inf, and keeps a NaN's sign and the top bits
// of its payload (a payload that truncates to zero becomes the quiet NaN). Decoding is exact.
#pragma once

#include <cstdint>

namespace infinicts {

uint16_t DoubleToF16Bits(double value);
uint16_t FloatToF16Bits(float value);  // same result as DoubleToF16Bits(double(value))
double F16BitsToDouble(uint16_t bits);
float F16BitsToFloat(uint16_t bits);

uint16_t DoubleToBf16Bits(double value);
uint16_t FloatToBf16Bits(float value);
double Bf16BitsToDouble(uint16_t bits);
float Bf16BitsToFloat(uint16_t bits);

// The value `value` takes once stored as F16 / BF16 (a double holding the rounded number).
double RoundToF16(double value);
double RoundToBf16(double value);

}  // namespace infinicts
