// The AVX-512 bodies of the hot kernels of core/simd.h (simd_avx512.cc, compiled alone
// with the AVX-512 flags). Only simd_avx2.cc calls them, after Supported() said yes: the
// AVX2 entry points forward here on a CPU with AVX-512 F/BW/VL/DQ, where the 16-lane form
// runs the exp-bound kernels at up to twice the rate (full-width units, one scalef for
// exp's 2^n). Each function has the contract of its namesake in core/simd.h.
#ifndef INFINICTS_REF_OP_CORE_SIMD_AVX512_H
#define INFINICTS_REF_OP_CORE_SIMD_AVX512_H

#include <cstddef>
#include <cstdint>

#include "core/simd.h"

namespace infinicts::ref::op::simd::avx512 {

// Compiled in, and this CPU (and its OS) run AVX-512 F, BW, VL and DQ.
bool Supported();

void Map(MapOp op, bool half, const void *const *in, void *out, size_t n, bool streaming);
float RowMax(const float *x, size_t n);
double ExpShiftedSum(const float *x, float shift, float *y, size_t n, const void *prefetch, size_t prefetch_bytes,
                     bool for_half);
double SumSquares(const float *x, size_t n);
float F16ToF32RowMax(const uint16_t *in, float *out, size_t n);
double F16ToF32SumSquares(const uint16_t *in, float *out, size_t n);
void ScaleInto(const float *x, float factor, float *y, size_t n, bool streaming);
void ScaleInto(const float *x, float factor, uint16_t *y, size_t n, bool streaming);
void SubtractTwiceInto(const float *x, float first, float second, float *y, size_t n, bool streaming);
void SubtractTwiceInto(const float *x, float first, float second, uint16_t *y, size_t n, bool streaming);
void ScaleTimesInto(const float *x, float factor, const float *w, float *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes);
void ScaleTimesInto(const float *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes);
void ScaleTimesInto(const uint16_t *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes);
void TransposeLinesOf32(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);
void TransposeLinesOf16(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);

}  // namespace infinicts::ref::op::simd::avx512

#endif  // INFINICTS_REF_OP_CORE_SIMD_AVX512_H
