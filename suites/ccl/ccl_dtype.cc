#include "ccl_dtype.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace infinicts::ccl_cases {

const char *OpName(infinicclReduceOp_t op) {
  switch (op) {
    case INFINICCL_SUM: return "sum";
    case INFINICCL_PROD: return "prod";
    case INFINICCL_MAX: return "max";
    case INFINICCL_MIN: return "min";
    case INFINICCL_AVG: return "avg";
  }
  return "op";
}

const char *NumberDtypeName(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_I8: return "i8";
    case INFINI_DTYPE_I16: return "i16";
    case INFINI_DTYPE_I32: return "i32";
    case INFINI_DTYPE_I64: return "i64";
    case INFINI_DTYPE_U8: return "u8";
    case INFINI_DTYPE_U16: return "u16";
    case INFINI_DTYPE_U32: return "u32";
    case INFINI_DTYPE_U64: return "u64";
    case INFINI_DTYPE_F16: return "f16";
    case INFINI_DTYPE_BF16: return "bf16";
    case INFINI_DTYPE_F32: return "f32";
    case INFINI_DTYPE_F64: return "f64";
    default: return "dtype";
  }
}

size_t ElementSize(infiniDtype_t dtype) {
  return VisitNumberDtype(dtype, [](auto format) { return sizeof(typename decltype(format)::Bits); });
}

bool IsFloatingDtype(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 || dtype == INFINI_DTYPE_F32 ||
         dtype == INFINI_DTYPE_F64;
}

std::string DescribeElement(infiniDtype_t dtype, const uint8_t *element) {
  return VisitNumberDtype(dtype, [element](auto format) {
    using Format = decltype(format);
    typename Format::Bits bits;
    std::memcpy(&bits, element, sizeof bits);
    const auto value = Format::Decode(bits);
    uint64_t raw = 0;
    std::memcpy(&raw, element, sizeof bits);  // little-endian: the low bytes
    char text[96];
    if constexpr (Format::kind == NumberKind::kFloat) {
      std::snprintf(text, sizeof text, "%.17g (0x%0*" PRIx64 ")", value, static_cast<int>(2 * sizeof bits), raw);
    } else if constexpr (Format::kind == NumberKind::kSigned) {
      std::snprintf(text, sizeof text, "%" PRId64, static_cast<int64_t>(value));
    } else {
      std::snprintf(text, sizeof text, "%" PRIu64, static_cast<uint64_t>(value));
    }
    return std::string(text);
  });
}

}  // namespace infinicts::ccl_cases
