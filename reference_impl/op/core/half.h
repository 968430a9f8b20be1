// IEEE binary16 (F16) and bfloat16 (BF16) storage types and their conversions to and
// from binary32: round to nearest even, subnormals kept, Inf kept, NaN kept quiet.
#ifndef INFINICTS_REF_OP_CORE_HALF_H
#define INFINICTS_REF_OP_CORE_HALF_H

#include <cstdint>
#include <cstring>

namespace infinicts::ref::op {

struct f16_t {
  uint16_t bits;
};
struct bf16_t {
  uint16_t bits;
};

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline float F16ToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return BitsToFloat(sign | 0x7f800000u | (mantissa << 13));  // Inf, NaN
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in binary32.
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return BitsToFloat(sign | FloatBits(magnitude));
  }
  return BitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

inline uint16_t FloatToF16(float f) {
  uint32_t x = FloatBits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) {  // Inf stays Inf; NaN keeps its top payload bits and is made quiet
    return static_cast<uint16_t>(sign | 0x7c00u | (x > 0x7f800000u ? (0x200u | ((x >> 13) & 0x3ffu)) : 0u));
  }
  if (x >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to >= 65520: Inf
  if (x < 0x38800000u) {
    // Below the smallest normal (2^-14): adding 0.5 leaves an ulp of 2^-24, the F16
    // subnormal step, so the hardware addition rounds to nearest even for us.
    const float shifted = BitsToFloat(x) + 0.5f;
    return static_cast<uint16_t>(sign | (FloatBits(shifted) - 0x3f000000u));
  }
  // Normal: rebias the exponent (127 -> 15) and round the 13 dropped bits to nearest even.
  const uint32_t odd = (x >> 13) & 1u;
  x += 0xc8000fffu + odd;
  return static_cast<uint16_t>(sign | (x >> 13));
}

inline float Bf16ToFloat(uint16_t b) { return BitsToFloat(static_cast<uint32_t>(b) << 16); }

inline uint16_t FloatToBf16(float f) {
  const uint32_t x = FloatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  const uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_HALF_H
