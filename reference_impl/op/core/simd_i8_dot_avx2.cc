// The AVX2 body of core/simd_i8_dot.h. Compiled alone with -mavx2 -mfma -mf16c (like
// core/simd_int8_avx2.cc): it includes no header with inline functions of its own, so no AVX2
// copy of shared code can reach a CPU without AVX2.
#include "core/simd_i8_dot.h"

#include <cstdlib>

#if defined(__AVX2__)
#include <immintrin.h>

namespace infinicts::ref::op::simd {
namespace {

constexpr size_t kStep = 16;  // int8 per widened load

__m256i Widened(const int8_t *p) { return _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p))); }

int32_t LaneSum(__m256i v) {
  const __m128i folded = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  const __m128i pairs = _mm_add_epi32(folded, _mm_shuffle_epi32(folded, 0x4e));
  return _mm_cvtsi128_si32(_mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, 0xb1)));
}

// kRows × kColumns accumulators of eight int32 lanes each; x's rows held widened while the
// columns of w stream past them.
template <size_t kRows, size_t kColumns>
void Tile(const int8_t *x, ptrdiff_t x_row, const int8_t *w, ptrdiff_t w_column, size_t depth, int32_t *acc,
          size_t acc_row) {
  __m256i sums[kRows][kColumns];
  for (size_t r = 0; r < kRows; ++r) {
    for (size_t c = 0; c < kColumns; ++c) sums[r][c] = _mm256_setzero_si256();
  }
  size_t k = 0;
  for (; k + kStep <= depth; k += kStep) {
    __m256i rows[kRows];
    for (size_t r = 0; r < kRows; ++r) rows[r] = Widened(x + static_cast<ptrdiff_t>(r) * x_row + k);
    for (size_t c = 0; c < kColumns; ++c) {
      const __m256i column = Widened(w + static_cast<ptrdiff_t>(c) * w_column + k);
      for (size_t r = 0; r < kRows; ++r) sums[r][c] = _mm256_add_epi32(sums[r][c], _mm256_madd_epi16(rows[r], column));
    }
  }
  for (size_t r = 0; r < kRows; ++r) {
    const int8_t *x_at = x + static_cast<ptrdiff_t>(r) * x_row;
    for (size_t c = 0; c < kColumns; ++c) {
      const int8_t *w_at = w + static_cast<ptrdiff_t>(c) * w_column;
      int32_t total = LaneSum(sums[r][c]);
      for (size_t t = k; t < depth; ++t) total += static_cast<int32_t>(x_at[t]) * static_cast<int32_t>(w_at[t]);
      acc[r * acc_row + c] += total;
    }
  }
}

using TileFn = void (*)(const int8_t *, ptrdiff_t, const int8_t *, ptrdiff_t, size_t, int32_t *, size_t);

template <size_t kRows>
constexpr TileFn TileOfColumns(size_t columns) {
  switch (columns) {
    case 1: return Tile<kRows, 1>;
    case 2: return Tile<kRows, 2>;
    case 3: return Tile<kRows, 3>;
    default: return Tile<kRows, 4>;
  }
}

}  // namespace

void I8DotTile(const int8_t *x, ptrdiff_t x_row, size_t rows, const int8_t *w, ptrdiff_t w_column, size_t columns,
               size_t depth, int32_t *acc, size_t acc_row) {
  if (rows == 0 || columns == 0) return;
  const TileFn tile = rows == 1 ? TileOfColumns<1>(columns) : rows == 2 ? TileOfColumns<2>(columns) : TileOfColumns<3>(columns);
  tile(x, x_row, w, w_column, depth, acc, acc_row);
}

}  // namespace infinicts::ref::op::simd

#else  // the compiler cannot target AVX2: simd::Enabled() is false and nothing here runs

namespace infinicts::ref::op::simd {
void I8DotTile(const int8_t *, ptrdiff_t, size_t, const int8_t *, ptrdiff_t, size_t, size_t, int32_t *, size_t) {
  std::abort();
}
}  // namespace infinicts::ref::op::simd

#endif
