// The reduction kernels. Each works through the arrays a tile at a time: the tile's
// accumulator lives on the stack (so it aliases nothing and the loops over it vectorise),
// gets the first source, folds in the others one after another, and is stored once.
//
// Arithmetic per (dtype, op):
// - integers, SUM and PROD: wrap modulo 2^bits, computed in an unsigned type at least
//   32 bits wide (no signed overflow, no promotion to int).
// - integers, AVG: the sum in 64 bits (exact below 64-bit dtypes), divided by nranks
//   with C's truncation toward zero.
// - F16 and BF16: every op in F32, rounded to the dtype once at the end.
// - F32: F32, except AVG, which sums and divides in F64 before its one rounding.
// - F64: F64.
#include "ccl/reduce.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ccl/c_enum.h"
#include "ccl/half_float.h"

namespace infinicts::ref::ccl {
namespace {

// How a stored element becomes an accumulator value and back.
template <class Stored, class Accumulator>
struct PlainCodec {
  using StoredType = Stored;
  using AccumulatorType = Accumulator;
  static Accumulator Load(Stored value) { return static_cast<Accumulator>(value); }
  static Stored Store(Accumulator value) { return static_cast<Stored>(value); }
};

struct HalfCodec {
  using StoredType = uint16_t;
  using AccumulatorType = float;
  static float Load(uint16_t value) { return HalfToFloat(value); }
  static uint16_t Store(float value) { return FloatToHalf(value); }
};

struct Bfloat16Codec {
  using StoredType = uint16_t;
  using AccumulatorType = float;
  static float Load(uint16_t value) { return Bfloat16ToFloat(value); }
  static uint16_t Store(float value) { return FloatToBfloat16(value); }
};

// A signed integer summed in uint64_t (two's complement wraps like the exact sum as long
// as that fits 64 bits) and divided as a signed value.
template <class Stored>
struct SignedAverageCodec {
  using StoredType = Stored;
  using AccumulatorType = uint64_t;
  static uint64_t Load(Stored value) { return static_cast<uint64_t>(static_cast<int64_t>(value)); }
};

struct SumOp {
  template <class T>
  static T Combine(T a, T b) {
    return a + b;
  }
};
struct ProdOp {
  template <class T>
  static T Combine(T a, T b) {
    return a * b;
  }
};
struct MaxOp {
  template <class T>
  static T Combine(T a, T b) {
    return a < b ? b : a;
  }
};
struct MinOp {
  template <class T>
  static T Combine(T a, T b) {
    return b < a ? b : a;
  }
};

// Elements per tile: a few KiB of accumulator, well inside L1.
constexpr size_t kTile = 1024;

// acc[0, n) = Load(first[0, n)), then acc = Op(acc, Load(source)) for each other source.
template <class Codec, class Op>
void AccumulateTile(const void *const *sources, int nsources, size_t begin, size_t n,
                    typename Codec::AccumulatorType *acc) {
  using Stored = typename Codec::StoredType;
  const Stored *first = static_cast<const Stored *>(sources[0]) + begin;
  for (size_t i = 0; i < n; ++i) acc[i] = Codec::Load(first[i]);
  for (int s = 1; s < nsources; ++s) {
    const Stored *source = static_cast<const Stored *>(sources[s]) + begin;
    for (size_t i = 0; i < n; ++i) acc[i] = Op::Combine(acc[i], Codec::Load(source[i]));
  }
}

template <class Codec, class Op>
void ReduceWith(const void *const *sources, int nsources, void *dst, size_t count, int /*nranks*/) {
  using Stored = typename Codec::StoredType;
  typename Codec::AccumulatorType acc[kTile];
  Stored *out = static_cast<Stored *>(dst);
  for (size_t begin = 0; begin < count; begin += kTile) {
    const size_t n = std::min(kTile, count - begin);
    AccumulateTile<Codec, Op>(sources, nsources, begin, n, acc);
    for (size_t i = 0; i < n; ++i) out[begin + i] = Codec::Store(acc[i]);
  }
}

// AVG = SUM / nranks; `Finish` turns a tile's sum into stored elements.
template <class Codec, class Finish>
void AverageWith(const void *const *sources, int nsources, void *dst, size_t count, int nranks, Finish finish) {
  using Stored = typename Codec::StoredType;
  typename Codec::AccumulatorType acc[kTile];
  Stored *out = static_cast<Stored *>(dst);
  for (size_t begin = 0; begin < count; begin += kTile) {
    const size_t n = std::min(kTile, count - begin);
    AccumulateTile<Codec, SumOp>(sources, nsources, begin, n, acc);
    for (size_t i = 0; i < n; ++i) out[begin + i] = finish(acc[i], nranks);
  }
}

template <class Stored>
void AverageSignedInteger(const void *const *sources, int nsources, void *dst, size_t count, int nranks) {
  AverageWith<SignedAverageCodec<Stored>>(sources, nsources, dst, count, nranks, [](uint64_t sum, int divisor) {
    return static_cast<Stored>(static_cast<int64_t>(sum) / divisor);
  });
}

template <class Stored>
void AverageUnsignedInteger(const void *const *sources, int nsources, void *dst, size_t count, int nranks) {
  AverageWith<PlainCodec<Stored, uint64_t>>(sources, nsources, dst, count, nranks, [](uint64_t sum, int divisor) {
    return static_cast<Stored>(sum / static_cast<uint64_t>(divisor));
  });
}

template <class Codec>
void AverageFloating(const void *const *sources, int nsources, void *dst, size_t count, int nranks) {
  using Accumulator = typename Codec::AccumulatorType;
  AverageWith<Codec>(sources, nsources, dst, count, nranks, [](Accumulator sum, int divisor) {
    return Codec::Store(sum / static_cast<Accumulator>(divisor));
  });
}

// The five functions of one dtype, indexed by infinicclReduceOp_t.
struct OpTable {
  ReduceFunction by_op[5];
};

// Integers: SUM and PROD wrap in an unsigned type of at least 32 bits.
template <class Stored>
constexpr OpTable IntegerTable() {
  using Wide = std::conditional_t<(sizeof(Stored) > 4), uint64_t, uint32_t>;
  using Wrapping = PlainCodec<Stored, Wide>;
  using Exact = PlainCodec<Stored, Stored>;
  ReduceFunction average = nullptr;
  if constexpr (std::is_signed_v<Stored>) {
    average = &AverageSignedInteger<Stored>;
  } else {
    average = &AverageUnsignedInteger<Stored>;
  }
  return OpTable{{&ReduceWith<Wrapping, SumOp>, &ReduceWith<Wrapping, ProdOp>, &ReduceWith<Exact, MaxOp>,
                  &ReduceWith<Exact, MinOp>, average}};
}

// Floating point: `Codec` for SUM, PROD, MAX, MIN; `AverageCodec` for AVG.
template <class Codec, class AverageCodec>
constexpr OpTable FloatingTable() {
  return OpTable{{&ReduceWith<Codec, SumOp>, &ReduceWith<Codec, ProdOp>, &ReduceWith<Codec, MaxOp>,
                  &ReduceWith<Codec, MinOp>, &AverageFloating<AverageCodec>}};
}

const OpTable *TableFor(int dtype) {
  static constexpr OpTable kI8 = IntegerTable<int8_t>();
  static constexpr OpTable kI16 = IntegerTable<int16_t>();
  static constexpr OpTable kI32 = IntegerTable<int32_t>();
  static constexpr OpTable kI64 = IntegerTable<int64_t>();
  static constexpr OpTable kU8 = IntegerTable<uint8_t>();
  static constexpr OpTable kU16 = IntegerTable<uint16_t>();
  static constexpr OpTable kU32 = IntegerTable<uint32_t>();
  static constexpr OpTable kU64 = IntegerTable<uint64_t>();
  static constexpr OpTable kF16 = FloatingTable<HalfCodec, HalfCodec>();
  static constexpr OpTable kBF16 = FloatingTable<Bfloat16Codec, Bfloat16Codec>();
  static constexpr OpTable kF32 = FloatingTable<PlainCodec<float, float>, PlainCodec<float, double>>();
  static constexpr OpTable kF64 = FloatingTable<PlainCodec<double, double>, PlainCodec<double, double>>();
  switch (dtype) {
    case INFINI_DTYPE_I8:
      return &kI8;
    case INFINI_DTYPE_I16:
      return &kI16;
    case INFINI_DTYPE_I32:
      return &kI32;
    case INFINI_DTYPE_I64:
      return &kI64;
    case INFINI_DTYPE_U8:
      return &kU8;
    case INFINI_DTYPE_U16:
      return &kU16;
    case INFINI_DTYPE_U32:
      return &kU32;
    case INFINI_DTYPE_U64:
      return &kU64;
    case INFINI_DTYPE_F16:
      return &kF16;
    case INFINI_DTYPE_BF16:
      return &kBF16;
    case INFINI_DTYPE_F32:
      return &kF32;
    case INFINI_DTYPE_F64:
      return &kF64;
    default:
      return nullptr;
  }
}

}  // namespace

ReduceFunction FindReduceFunction(infiniDtype_t dtype, infinicclReduceOp_t op) {
  const OpTable *table = TableFor(EnumValue(dtype));
  const int op_index = EnumValue(op);
  if (table == nullptr || op_index < 0 || op_index >= 5) return nullptr;
  return table->by_op[op_index];
}

}  // namespace infinicts::ref::ccl
