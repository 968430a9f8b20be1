// Dtype facts (sizes, families) and the bridge between a storage type and the type
// its arithmetic runs in: F16/BF16/F32 compute in float, F64 in double.
#ifndef INFINICTS_REF_OP_CORE_DTYPE_H
#define INFINICTS_REF_OP_CORE_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/half.h"
#include "infinicore.h"

namespace infinicts::ref::op {

// Bytes per element; 0 for a value outside the enum or INVALID.
inline size_t DtypeSize(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_BYTE: case INFINI_DTYPE_BOOL: case INFINI_DTYPE_I8: case INFINI_DTYPE_U8:
    case INFINI_DTYPE_F8:
      return 1;
    case INFINI_DTYPE_I16: case INFINI_DTYPE_U16: case INFINI_DTYPE_F16: case INFINI_DTYPE_BF16:
    case INFINI_DTYPE_C16:
      return 2;
    case INFINI_DTYPE_I32: case INFINI_DTYPE_U32: case INFINI_DTYPE_F32: case INFINI_DTYPE_C32:
      return 4;
    case INFINI_DTYPE_I64: case INFINI_DTYPE_U64: case INFINI_DTYPE_F64: case INFINI_DTYPE_C64:
      return 8;
    case INFINI_DTYPE_C128:
      return 16;
    default:
      return 0;
  }
}

inline bool IsFloatDtype(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 || dtype == INFINI_DTYPE_F32 ||
         dtype == INFINI_DTYPE_F64;
}

inline bool IsIntegerDtype(infiniDtype_t dtype) {
  return (dtype >= INFINI_DTYPE_I8 && dtype <= INFINI_DTYPE_I64) ||
         (dtype >= INFINI_DTYPE_U8 && dtype <= INFINI_DTYPE_U64);
}

// Storage <-> compute conversions.
template <class T>
struct Num;
// A type computed as it is stored: F32, F64, and the integer dtypes an operator may take
// (Add, Sub and Mul I32 and I64; the fills every integer width).
template <class T>
struct StoredAsComputed {
  using Compute = T;
  static T Load(T v) { return v; }
  static T Store(T c) { return c; }
};
template <>
struct Num<float> : StoredAsComputed<float> {};
template <>
struct Num<double> : StoredAsComputed<double> {};
template <>
struct Num<int32_t> : StoredAsComputed<int32_t> {};
template <>
struct Num<int64_t> : StoredAsComputed<int64_t> {};
template <>
struct Num<int8_t> : StoredAsComputed<int8_t> {};
template <>
struct Num<int16_t> : StoredAsComputed<int16_t> {};
template <>
struct Num<uint8_t> : StoredAsComputed<uint8_t> {};
template <>
struct Num<uint16_t> : StoredAsComputed<uint16_t> {};
template <>
struct Num<uint32_t> : StoredAsComputed<uint32_t> {};
template <>
struct Num<uint64_t> : StoredAsComputed<uint64_t> {};
template <>
struct Num<f16_t> {
  using Compute = float;
  static float Load(f16_t v) { return F16ToFloat(v.bits); }
  static f16_t Store(float c) { return {FloatToF16(c)}; }
};
template <>
struct Num<bf16_t> {
  using Compute = float;
  static float Load(bf16_t v) { return Bf16ToFloat(v.bits); }
  static bf16_t Store(float c) { return {FloatToBf16(c)}; }
};

// Two's-complement arithmetic on signed integers, wrapping where it overflows (as the
// hardware does) instead of the undefined behaviour of signed overflow in C++.
template <class I>
inline I Wrapping(I a, I b, char op) {
  using U = std::make_unsigned_t<I>;
  const U x = static_cast<U>(a), y = static_cast<U>(b);
  return static_cast<I>(op == '+' ? static_cast<U>(x + y) : op == '-' ? static_cast<U>(x - y) : static_cast<U>(x * y));
}

template <class T>
using ComputeOf = typename Num<T>::Compute;

// Reductions and the other row-wise operators compute in double whatever the storage
// type, and round once when they store.
template <class T>
inline double LoadDouble(T v) {
  return static_cast<double>(Num<T>::Load(v));
}
template <class T>
inline T StoreDouble(double v) {
  return Num<T>::Store(static_cast<ComputeOf<T>>(v));
}

template <class T>
struct TypeTag {
  using type = T;
};

// Calls fn(TypeTag<T>{}) with the storage type of a floating dtype; false when `dtype`
// is not one (callers validated it at descriptor creation).
template <class Fn>
bool DispatchFloat(infiniDtype_t dtype, Fn &&fn) {
  switch (dtype) {
    case INFINI_DTYPE_F16: fn(TypeTag<f16_t>{}); return true;
    case INFINI_DTYPE_BF16: fn(TypeTag<bf16_t>{}); return true;
    case INFINI_DTYPE_F32: fn(TypeTag<float>{}); return true;
    case INFINI_DTYPE_F64: fn(TypeTag<double>{}); return true;
    default: return false;
  }
}

template <class Fn>
bool DispatchInteger(infiniDtype_t dtype, Fn &&fn) {
  switch (dtype) {
    case INFINI_DTYPE_I8: fn(TypeTag<int8_t>{}); return true;
    case INFINI_DTYPE_I16: fn(TypeTag<int16_t>{}); return true;
    case INFINI_DTYPE_I32: fn(TypeTag<int32_t>{}); return true;
    case INFINI_DTYPE_I64: fn(TypeTag<int64_t>{}); return true;
    case INFINI_DTYPE_U8: fn(TypeTag<uint8_t>{}); return true;
    case INFINI_DTYPE_U16: fn(TypeTag<uint16_t>{}); return true;
    case INFINI_DTYPE_U32: fn(TypeTag<uint32_t>{}); return true;
    case INFINI_DTYPE_U64: fn(TypeTag<uint64_t>{}); return true;
    default: return false;
  }
}

// The dtypes beyond the float ones that the fills take (rules::TakesEveryDtype): every
// integer dtype, and BYTE and BOOL as bytes.
inline bool IsWordDtype(infiniDtype_t dtype) {
  return IsIntegerDtype(dtype) || dtype == INFINI_DTYPE_BYTE || dtype == INFINI_DTYPE_BOOL;
}

// Calls fn(TypeTag<T>{}) with the storage type of a word dtype (BYTE and BOOL as uint8_t).
template <class Fn>
bool DispatchWord(infiniDtype_t dtype, Fn &&fn) {
  if (dtype == INFINI_DTYPE_BYTE || dtype == INFINI_DTYPE_BOOL) {
    fn(TypeTag<uint8_t>{});
    return true;
  }
  return DispatchInteger(dtype, fn);
}

// An integer index read as int64, with values beyond int64 (huge U64) mapped to -1 so
// that every range check treats them as out of range.
template <class I>
inline int64_t IndexValue(I v) {
  if constexpr (std::is_same_v<I, uint64_t>) {
    return v > static_cast<uint64_t>(INT64_MAX) ? -1 : static_cast<int64_t>(v);
  } else {
    return static_cast<int64_t>(v);
  }
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_DTYPE_H
