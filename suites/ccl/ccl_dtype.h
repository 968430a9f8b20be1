// The number dtypes of the collectives and how the host holds their elements: each
// dtype is a Format with the element's storage type (Bits), the host arithmetic type
// (Value: int64_t, uint64_t or double) and exact conversions between the two.
// VisitNumberDtype calls a generic function with the Format of a runtime dtype.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "infiniccl.h"
#include "tensor/half.h"

namespace infinicts::ccl_cases {

inline const std::vector<infiniDtype_t> kNumberDtypes = {
    INFINI_DTYPE_I8,  INFINI_DTYPE_I16, INFINI_DTYPE_I32, INFINI_DTYPE_I64, INFINI_DTYPE_U8,   INFINI_DTYPE_U16,
    INFINI_DTYPE_U32, INFINI_DTYPE_U64, INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};

inline const std::vector<infinicclReduceOp_t> kReduceOps = {INFINICCL_SUM, INFINICCL_PROD, INFINICCL_MAX,
                                                            INFINICCL_MIN, INFINICCL_AVG};

const char *OpName(infinicclReduceOp_t op);  // "sum", "prod", "max", "min", "avg"
const char *NumberDtypeName(infiniDtype_t dtype);  // "i8", ..., "bf16", "f64"
size_t ElementSize(infiniDtype_t dtype);      // bytes of one element of a number dtype
bool IsFloatingDtype(infiniDtype_t dtype);    // F16, BF16, F32, F64

enum class NumberKind { kSigned, kUnsigned, kFloat };

template <class BitsT, infiniDtype_t kDtype>
struct SignedFormat {
  using Bits = BitsT;
  using Value = int64_t;
  static constexpr infiniDtype_t dtype = kDtype;
  static constexpr NumberKind kind = NumberKind::kSigned;
  static constexpr Value kMin = std::numeric_limits<BitsT>::min();
  static constexpr Value kMax = std::numeric_limits<BitsT>::max();
  static Bits Encode(Value value) { return static_cast<Bits>(value); }
  static Value Decode(Bits bits) { return bits; }
};

template <class BitsT, infiniDtype_t kDtype>
struct UnsignedFormat {
  using Bits = BitsT;
  using Value = uint64_t;
  static constexpr infiniDtype_t dtype = kDtype;
  static constexpr NumberKind kind = NumberKind::kUnsigned;
  static constexpr Value kMin = 0;
  static constexpr Value kMax = std::numeric_limits<BitsT>::max();
  static Bits Encode(Value value) { return static_cast<Bits>(value); }
  static Value Decode(Bits bits) { return bits; }
};

// Floating formats: `precision` significant bits (the implicit one included), normal
// exponents in [min_exponent, max_exponent]. Encode rounds to nearest, ties to even.
struct F16Format {
  using Bits = uint16_t;
  using Value = double;
  static constexpr infiniDtype_t dtype = INFINI_DTYPE_F16;
  static constexpr NumberKind kind = NumberKind::kFloat;
  static constexpr int precision = 11, min_exponent = -14, max_exponent = 15;
  static Bits Encode(Value value) { return DoubleToF16Bits(value); }
  static Value Decode(Bits bits) { return F16BitsToDouble(bits); }
};
struct Bf16Format {
  using Bits = uint16_t;
  using Value = double;
  static constexpr infiniDtype_t dtype = INFINI_DTYPE_BF16;
  static constexpr NumberKind kind = NumberKind::kFloat;
  static constexpr int precision = 8, min_exponent = -126, max_exponent = 127;
  static Bits Encode(Value value) {
    // Most values the suite encodes are BF16 numbers already: their F32 form ends in 16
    // zero bits. Everything else takes the rounding conversion.
    const float narrow = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof bits);
    if (static_cast<double>(narrow) == value && (bits & 0xFFFFu) == 0) return static_cast<Bits>(bits >> 16);
    return DoubleToBf16Bits(value);
  }
  static Value Decode(Bits bits) { return Bf16BitsToDouble(bits); }
};
struct F32Format {
  using Bits = float;
  using Value = double;
  static constexpr infiniDtype_t dtype = INFINI_DTYPE_F32;
  static constexpr NumberKind kind = NumberKind::kFloat;
  static constexpr int precision = 24, min_exponent = -126, max_exponent = 127;
  static Bits Encode(Value value) { return static_cast<float>(value); }
  static Value Decode(Bits bits) { return bits; }
};
struct F64Format {
  using Bits = double;
  using Value = double;
  static constexpr infiniDtype_t dtype = INFINI_DTYPE_F64;
  static constexpr NumberKind kind = NumberKind::kFloat;
  static constexpr int precision = 53, min_exponent = -1022, max_exponent = 1023;
  static Bits Encode(Value value) { return value; }
  static Value Decode(Bits bits) { return bits; }
};

using I8Format = SignedFormat<int8_t, INFINI_DTYPE_I8>;
using I16Format = SignedFormat<int16_t, INFINI_DTYPE_I16>;
using I32Format = SignedFormat<int32_t, INFINI_DTYPE_I32>;
using I64Format = SignedFormat<int64_t, INFINI_DTYPE_I64>;
using U8Format = UnsignedFormat<uint8_t, INFINI_DTYPE_U8>;
using U16Format = UnsignedFormat<uint16_t, INFINI_DTYPE_U16>;
using U32Format = UnsignedFormat<uint32_t, INFINI_DTYPE_U32>;
using U64Format = UnsignedFormat<uint64_t, INFINI_DTYPE_U64>;

// Calls fn(Format{}) for a number dtype; any other dtype is a bug of the suite.
template <class Fn>
decltype(auto) VisitNumberDtype(infiniDtype_t dtype, Fn &&fn) {
  switch (dtype) {
    case INFINI_DTYPE_I8: return fn(I8Format{});
    case INFINI_DTYPE_I16: return fn(I16Format{});
    case INFINI_DTYPE_I32: return fn(I32Format{});
    case INFINI_DTYPE_I64: return fn(I64Format{});
    case INFINI_DTYPE_U8: return fn(U8Format{});
    case INFINI_DTYPE_U16: return fn(U16Format{});
    case INFINI_DTYPE_U32: return fn(U32Format{});
    case INFINI_DTYPE_U64: return fn(U64Format{});
    case INFINI_DTYPE_F16: return fn(F16Format{});
    case INFINI_DTYPE_BF16: return fn(Bf16Format{});
    case INFINI_DTYPE_F32: return fn(F32Format{});
    case INFINI_DTYPE_F64: return fn(F64Format{});
    default: std::abort();
  }
}

// One element as text for messages: the value and its bits ("-12.25 (0xca20)").
std::string DescribeElement(infiniDtype_t dtype, const uint8_t *element);

}  // namespace infinicts::ccl_cases
