#include "op/element_values.h"

#include <cmath>
#include <cstring>

namespace infinicts::fault {
namespace {

uint32_t BitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float FloatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

template <class T>
T Read(const void *base, ptrdiff_t offset) {
  T value;
  std::memcpy(&value, static_cast<const char *>(base) + offset * static_cast<ptrdiff_t>(sizeof(T)), sizeof(T));
  return value;
}

template <class T>
void Write(void *base, ptrdiff_t offset, T value) {
  std::memcpy(static_cast<char *>(base) + offset * static_cast<ptrdiff_t>(sizeof(T)), &value, sizeof(T));
}

}  // namespace

uint16_t FloatToHalfBits(float value) {
  const uint32_t bits = BitsOf(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;    // NaN stays NaN (quiet)
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;   // 65520 and above round to Inf
  if (magnitude < 0x38800000u) {                         // below 2^-14: a subnormal (or 0)
    const float units = std::fabs(value) * 16777216.0f;  // in steps of 2^-24, exact
    return sign | static_cast<uint16_t>(std::nearbyint(units));
  }
  const uint32_t exponent = (magnitude >> 23) - 112;  // rebias 127 -> 15
  const uint32_t mantissa = magnitude & 0x7fffffu;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  const uint32_t dropped = mantissa & 0x1fffu;
  if (dropped > 0x1000u || (dropped == 0x1000u && (half & 1u))) ++half;  // a carry moves the exponent up
  return static_cast<uint16_t>(sign | half);
}

float HalfBitsToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return FloatOf(sign | 0x7f800000u | (mantissa << 13));
  return FloatOf(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t FloatToBf16Bits(float value) {
  const uint32_t bits = BitsOf(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float Bf16BitsToFloat(uint16_t bits) { return FloatOf(static_cast<uint32_t>(bits) << 16); }

float RoundToHalf(float value) { return HalfBitsToFloat(FloatToHalfBits(value)); }

bool IsFloatDtype(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 || dtype == INFINI_DTYPE_F32 ||
         dtype == INFINI_DTYPE_F64;
}

double LoadElement(infiniDtype_t dtype, const void *base, ptrdiff_t offset) {
  switch (dtype) {
    case INFINI_DTYPE_F16:
      return HalfBitsToFloat(Read<uint16_t>(base, offset));
    case INFINI_DTYPE_BF16:
      return Bf16BitsToFloat(Read<uint16_t>(base, offset));
    case INFINI_DTYPE_F32:
      return Read<float>(base, offset);
    case INFINI_DTYPE_F64:
      return Read<double>(base, offset);
    case INFINI_DTYPE_I8:
      return Read<int8_t>(base, offset);
    default:
      return std::nan("");
  }
}

void StoreElement(infiniDtype_t dtype, void *base, ptrdiff_t offset, double value) {
  switch (dtype) {
    case INFINI_DTYPE_F16:
      Write(base, offset, FloatToHalfBits(static_cast<float>(value)));
      break;
    case INFINI_DTYPE_BF16:
      Write(base, offset, FloatToBf16Bits(static_cast<float>(value)));
      break;
    case INFINI_DTYPE_F32:
      Write(base, offset, static_cast<float>(value));
      break;
    case INFINI_DTYPE_F64:
      Write(base, offset, value);
      break;
    case INFINI_DTYPE_I8:
      Write(base, offset, static_cast<int8_t>(value));
      break;
    default:
      break;
  }
}

std::vector<ptrdiff_t> LineStarts(const TensorLayout &layout, size_t axis) {
  std::vector<ptrdiff_t> starts = {0};
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    if (d == axis) continue;
    std::vector<ptrdiff_t> longer;
    longer.reserve(starts.size() * layout.shape[d]);
    for (ptrdiff_t start : starts) {
      for (size_t i = 0; i < layout.shape[d]; ++i)
        longer.push_back(start + static_cast<ptrdiff_t>(i) * layout.strides[d]);
    }
    starts.swap(longer);
  }
  return starts;
}

}  // namespace infinicts::fault
