// F16 (IEEE binary16) and BF16 to and from F32, written with selects instead of branches
// so that the reduction loops that call them still vectorise. F32 -> 16 bits rounds to
// nearest even; subnormals, infinities and NaN (made quiet) are kept.
#ifndef INFINICTS_REF_CCL_HALF_FLOAT_H
#define INFINICTS_REF_CCL_HALF_FLOAT_H

#include <cstdint>
#include <cstring>

namespace infinicts::ref::ccl {

inline uint32_t BitsOfFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float FloatOfBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline float HalfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t magnitude = half & 0x7fffu;
  // Normal numbers: move exponent and mantissa into place and rebias 15 -> 127 (+112);
  // Inf and NaN (exponent 31) need another +112 to reach exponent 255.
  const uint32_t rebiased = (magnitude << 13) + 0x38000000u;
  const uint32_t normal_or_special = magnitude >= 0x7c00u ? rebiased + 0x38000000u : rebiased;
  // Zero and subnormals: magnitude * 2^-24, exact in F32.
  const uint32_t subnormal = BitsOfFloat(static_cast<float>(static_cast<int32_t>(magnitude)) * 0x1p-24f);
  return FloatOfBits(sign | (magnitude < 0x400u ? subnormal : normal_or_special));
}

inline uint16_t FloatToHalf(float value) {
  const uint32_t bits = BitsOfFloat(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & 0x7fffffffu;
  // NaN keeps its top payload bits and gets the quiet bit.
  const uint32_t nan = 0x7e00u | ((magnitude >> 13) & 0x3ffu);
  // 65520 and above round to Inf (Inf itself included).
  const uint32_t overflow = 0x7c00u;
  // Below 2^-14 the result is subnormal: adding 0.5 leaves a unit in the last place of
  // 2^-24, the F16 subnormal step, so the F32 addition rounds to nearest even for us.
  const uint32_t subnormal = BitsOfFloat(FloatOfBits(magnitude) + 0.5f) - 0x3f000000u;
  // Normal: rebias 127 -> 15 (-112 << 23) and round the 13 dropped bits to nearest even.
  const uint32_t normal = (magnitude - 0x38000000u + 0xfffu + ((magnitude >> 13) & 1u)) >> 13;
  uint32_t result = magnitude < 0x38800000u ? subnormal : normal;
  result = magnitude >= 0x477ff000u ? overflow : result;
  result = magnitude > 0x7f800000u ? nan : result;
  return static_cast<uint16_t>(sign | result);
}

inline float Bfloat16ToFloat(uint16_t bfloat) { return FloatOfBits(static_cast<uint32_t>(bfloat) << 16); }

inline uint16_t FloatToBfloat16(float value) {
  const uint32_t bits = BitsOfFloat(value);
  const uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  const uint32_t quiet_nan = (bits >> 16) | 0x40u;
  return static_cast<uint16_t>((bits & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
}

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_HALF_FLOAT_H
