#include "tensor/half.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace infinicts {
namespace {

// A binary interchange format narrower than double: one sign bit on top, then
// exponent_bits, then mantissa_bits, with IEEE rules for subnormals, Inf and NaN.
struct SmallFloatFormat {
  int exponent_bits;
  int mantissa_bits;

  uint32_t SignBit() const { return 1u << (exponent_bits + mantissa_bits); }
  uint32_t InfBits() const { return ((1u << exponent_bits) - 1u) << mantissa_bits; }
  int Bias() const { return (1 << (exponent_bits - 1)) - 1; }
  int MinNormalExponent() const { return 1 - Bias(); }
  int MaxExponent() const { return Bias(); }
};

constexpr SmallFloatFormat kF16{5, 10};
constexpr SmallFloatFormat kBf16{8, 7};
constexpr int kDoubleMantissaBits = 52;

uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

double DoubleFromBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

uint32_t Encode(double value, SmallFloatFormat format) {
  const int mantissa_bits = format.mantissa_bits;
  const uint32_t sign = std::signbit(value) ? format.SignBit() : 0u;
  if (std::isnan(value)) {
    const uint64_t payload52 = DoubleBits(value) & ((uint64_t{1} << kDoubleMantissaBits) - 1);
    uint32_t payload = static_cast<uint32_t>(payload52 >> (kDoubleMantissaBits - mantissa_bits));
    if (payload == 0) payload = 1u << (mantissa_bits - 1);  // the quiet NaN
    return sign | format.InfBits() | payload;
  }
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return sign | format.InfBits();
  if (magnitude == 0.0) return sign;

  int frexp_exponent;
  std::frexp(magnitude, &frexp_exponent);
  const int exponent = frexp_exponent - 1;  // magnitude lies in [2^exponent, 2^(exponent+1))
  if (exponent > format.MaxExponent()) return sign | format.InfBits();

  // Express the magnitude in units of the target's spacing at this exponent (subnormals
  // share the spacing of the smallest normal binade). Scaling by a power of two is exact.
  const int unit_exponent = std::max(exponent, format.MinNormalExponent()) - mantissa_bits;
  const double units = std::ldexp(magnitude, -unit_exponent);
  const double whole = std::floor(units);
  const double fraction = units - whole;
  uint64_t rounded = static_cast<uint64_t>(whole);
  if (fraction > 0.5 || (fraction == 0.5 && (rounded & 1u))) ++rounded;  // ties to even

  if (exponent < format.MinNormalExponent()) {
    // Subnormal: the field is the unit count; rounding up to 2^mantissa_bits carries
    // into the exponent field and yields the smallest normal, as it should.
    return sign | static_cast<uint32_t>(rounded);
  }
  // Normal: rounded lies in [2^m, 2^(m+1)]; the top value carries into the exponent.
  const uint64_t field = (static_cast<uint64_t>(exponent + format.Bias()) << mantissa_bits) +
                         (rounded - (uint64_t{1} << mantissa_bits));
  if (field >= format.InfBits()) return sign | format.InfBits();
  return sign | static_cast<uint32_t>(field);
}

double Decode(uint32_t bits, SmallFloatFormat format) {
  const int mantissa_bits = format.mantissa_bits;
  const bool negative = (bits & format.SignBit()) != 0;
  const uint32_t exponent_field = (bits & format.InfBits()) >> mantissa_bits;
  const uint32_t mantissa = bits & ((1u << mantissa_bits) - 1u);
  const uint32_t exponent_all_ones = (1u << format.exponent_bits) - 1u;
  if (exponent_field == exponent_all_ones) {
    if (mantissa == 0) return negative ? -HUGE_VAL : HUGE_VAL;
    const uint64_t nan_bits = (negative ? uint64_t{1} << 63 : 0) | (uint64_t{0x7FF} << kDoubleMantissaBits) |
                              (static_cast<uint64_t>(mantissa) << (kDoubleMantissaBits - mantissa_bits));
    return DoubleFromBits(nan_bits);
  }
  double magnitude;
  if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), format.MinNormalExponent() - mantissa_bits);
  } else {
    const double significand = static_cast<double>(mantissa + (1u << mantissa_bits));
    magnitude = std::ldexp(significand, static_cast<int>(exponent_field) - format.Bias() - mantissa_bits);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace

uint16_t DoubleToF16Bits(double value) { return static_cast<uint16_t>(Encode(value, kF16)); }
uint16_t FloatToF16Bits(float value) { return DoubleToF16Bits(static_cast<double>(value)); }
double F16BitsToDouble(uint16_t bits) { return Decode(bits, kF16); }
float F16BitsToFloat(uint16_t bits) { return static_cast<float>(F16BitsToDouble(bits)); }

uint16_t DoubleToBf16Bits(double value) { return static_cast<uint16_t>(Encode(value, kBf16)); }
uint16_t FloatToBf16Bits(float value) { return DoubleToBf16Bits(static_cast<double>(value)); }
double Bf16BitsToDouble(uint16_t bits) { return Decode(bits, kBf16); }
float Bf16BitsToFloat(uint16_t bits) { return static_cast<float>(Bf16BitsToDouble(bits)); }

double RoundToF16(double value) { return F16BitsToDouble(DoubleToF16Bits(value)); }
double RoundToBf16(double value) { return Bf16BitsToDouble(DoubleToBf16Bits(value)); }

}  // namespace infinicts
