#include "tensor/dtype.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace infinicts {
namespace {

struct DtypeFacts {
  infiniDtype_t dtype;
  const char *name;
  size_t size;
};

const DtypeFacts kFacts[] = {
    {INFINI_DTYPE_BYTE, "byte", 1}, {INFINI_DTYPE_BOOL, "bool", 1}, {INFINI_DTYPE_I8, "i8", 1},
    {INFINI_DTYPE_I16, "i16", 2},   {INFINI_DTYPE_I32, "i32", 4},   {INFINI_DTYPE_I64, "i64", 8},
    {INFINI_DTYPE_U8, "u8", 1},     {INFINI_DTYPE_U16, "u16", 2},   {INFINI_DTYPE_U32, "u32", 4},
    {INFINI_DTYPE_U64, "u64", 8},   {INFINI_DTYPE_F8, "f8", 1},     {INFINI_DTYPE_F16, "f16", 2},
    {INFINI_DTYPE_F32, "f32", 4},   {INFINI_DTYPE_F64, "f64", 8},   {INFINI_DTYPE_C16, "c16", 2},
    {INFINI_DTYPE_C32, "c32", 4},   {INFINI_DTYPE_C64, "c64", 8},   {INFINI_DTYPE_C128, "c128", 16},
    {INFINI_DTYPE_BF16, "bf16", 2},
};

const DtypeFacts *Find(infiniDtype_t dtype) {
  for (const auto &facts : kFacts) {
    if (facts.dtype == dtype) return &facts;
  }
  return nullptr;
}

}  // namespace

size_t DtypeSize(infiniDtype_t dtype) {
  const DtypeFacts *facts = Find(dtype);
  return facts ? facts->size : 0;
}

const char *DtypeName(infiniDtype_t dtype) {
  const DtypeFacts *facts = Find(dtype);
  return facts ? facts->name : "invalid";
}

std::optional<infiniDtype_t> ParseDtype(const std::string &name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto &facts : kFacts) {
    if (lower == facts.name) return facts.dtype;
  }
  return std::nullopt;
}

bool IsFloat(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F8 || dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 ||
         dtype == INFINI_DTYPE_F32 || dtype == INFINI_DTYPE_F64;
}

bool IsSignedInt(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_I8 || dtype == INFINI_DTYPE_I16 || dtype == INFINI_DTYPE_I32 ||
         dtype == INFINI_DTYPE_I64;
}

bool IsUnsignedInt(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_U8 || dtype == INFINI_DTYPE_U16 || dtype == INFINI_DTYPE_U32 ||
         dtype == INFINI_DTYPE_U64 || dtype == INFINI_DTYPE_BYTE;
}

bool IsInteger(infiniDtype_t dtype) { return IsSignedInt(dtype) || IsUnsignedInt(dtype); }

bool IsComplex(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_C16 || dtype == INFINI_DTYPE_C32 || dtype == INFINI_DTYPE_C64 ||
         dtype == INFINI_DTYPE_C128;
}

bool IsHostReadable(infiniDtype_t dtype) {
  return IsInteger(dtype) || dtype == INFINI_DTYPE_BOOL || dtype == INFINI_DTYPE_F16 ||
         dtype == INFINI_DTYPE_BF16 || dtype == INFINI_DTYPE_F32 || dtype == INFINI_DTYPE_F64;
}

int MantissaBits(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return 10;
    case INFINI_DTYPE_BF16: return 7;
    case INFINI_DTYPE_F32: return 23;
    case INFINI_DTYPE_F64: return 52;
    default: throw std::invalid_argument(std::string("MantissaBits: not a readable float dtype: ") + DtypeName(dtype));
  }
}

int MinNormalExponent(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return -14;
    case INFINI_DTYPE_BF16: return -126;
    case INFINI_DTYPE_F32: return -126;
    case INFINI_DTYPE_F64: return -1022;
    default:
      throw std::invalid_argument(std::string("MinNormalExponent: not a readable float dtype: ") + DtypeName(dtype));
  }
}

double MaxFinite(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return 65504.0;
    case INFINI_DTYPE_BF16: return 3.3895313892515355e38;  // (2 - 2^-7) * 2^127
    case INFINI_DTYPE_F32: return 3.4028234663852886e38;
    case INFINI_DTYPE_F64: return 1.7976931348623157e308;
    default: throw std::invalid_argument(std::string("MaxFinite: not a readable float dtype: ") + DtypeName(dtype));
  }
}

}  // namespace infinicts
