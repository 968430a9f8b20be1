// The vector kernel of I8Gemm (ops/i8_gemm.cc): exact int32 dot products of int8 runs, for
// a small block of x's rows against a small block of weights' columns, both contiguous in K.
// AVX2 without VNNI: each 16 int8 are widened to int16 and multiplied pairwise into int32
// lanes (vpmaddwd), which cannot saturate (vpmaddubsw, the u8 × s8 form, can). Callers use it
// only where simd::Enabled() (core/simd.h) and keep their portable loop otherwise.
#ifndef INFINICTS_REF_OP_CORE_SIMD_I8_DOT_H
#define INFINICTS_REF_OP_CORE_SIMD_I8_DOT_H

#include <cstddef>
#include <cstdint>

namespace infinicts::ref::op::simd {

constexpr size_t kI8DotRows = 3;     // the most rows of x one call takes
constexpr size_t kI8DotColumns = 4;  // the most columns of weights one call takes

// acc[r·acc_row + c] += Σ_{k < depth} x[r·x_row + k]·w[c·w_column + k] for r < rows and
// c < columns (rows ≤ kI8DotRows, columns ≤ kI8DotColumns).
void I8DotTile(const int8_t *x, ptrdiff_t x_row, size_t rows, const int8_t *w, ptrdiff_t w_column, size_t columns,
               size_t depth, int32_t *acc, size_t acc_row);

}  // namespace infinicts::ref::op::simd

#endif  // INFINICTS_REF_OP_CORE_SIMD_I8_DOT_H
