// Vector kernels for the hot contiguous paths (AVX2 + FMA + F16C), chosen at run time:
// Enabled() is true only when they were compiled in and this CPU has those features, and
// INFINICTS_REF_SIMD=0 in the environment turns them off (tests compare both paths).
// Callers keep their portable loops as the fallback. Every kernel takes contiguous
// arrays; in-place calls (out == in, element for element) are allowed.
//
// Accuracy: F16 <-> F32 conversions are exact / round to nearest even like core/half.h
// (the hardware does the same). Exp is within 2 ulps of exp in F32 (degree-7 Taylor on
// |r| <= ln2/2 after a Cody-Waite reduction), with exp's Inf, 0 and NaN cases; the
// activations built on it round each F32 step once.
#ifndef INFINICTS_REF_OP_CORE_SIMD_H
#define INFINICTS_REF_OP_CORE_SIMD_H

#include <cstddef>
#include <cstdint>

namespace infinicts::ref::op::simd {

bool Enabled();

void F16ToF32(const uint16_t *in, float *out, size_t n);
void F32ToF16(const float *in, uint16_t *out, size_t n);
// As the two above, but the destination is written with non-temporal stores (no read for
// ownership, no cache pollution) and fenced: for outputs far larger than the caches.
void CopyF32Streaming(const float *in, float *out, size_t n);
void F32ToF16Streaming(const float *in, uint16_t *out, size_t n);

// out[j * out_stride + k] = in[k * in_stride + j] for an 8 x 8 block of 4-byte or 2-byte
// elements (strides in elements): Rearrange's transposed tiles.
void Transpose8x8Of32(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);
void Transpose8x8Of16(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);

void Exp(const float *x, float *y, size_t n);
// x/2 (1 + erf(x / sqrt(2))), within a few ulps of F32 (fits described in simd_avx2.cc);
// |x| > 5.65, Inf and NaN through the scalar formula.
void Gelu(const float *x, float *y, size_t n);
void Sigmoid(const float *x, float *y, size_t n);  // 1 / (1 + exp(-x))
void Silu(const float *x, float *y, size_t n);     // x / (1 + exp(-x))
void SwiGLU(const float *a, const float *b, float *y, size_t n);  // a * (b / (1 + exp(-b)))

// Row helpers of the softmaxes and RMSNorm.
float RowMax(const float *x, size_t n);  // NaNs ignored, as fmax does; -Inf for n == 0
// y = exp(x - shift) when y is not null; answers the sum of exp(x - shift) in F64.
// `prefetch`, when not null: the first `prefetch_bytes` from it (the next row) are
// fetched into the cache a line at a time while this compute-bound pass runs.
double ExpShiftedSum(const float *x, float shift, float *y, size_t n, const void *prefetch = nullptr,
                     size_t prefetch_bytes = 0);
void Scale(const float *x, float factor, float *y, size_t n);                 // y = x * factor
void SubtractTwice(const float *x, float first, float second, float *y, size_t n);  // y = (x - first) - second
double SumSquares(const float *x, size_t n);                                  // in F64

// Fused passes, so that a row is swept fewer times. The first two convert an F16 row to
// F32 (out) and answer RowMax or SumSquares of it. The "Into" forms compute, in F32,
// y = x * factor, y = (x - first) - second or y = (x * factor) * w and write it straight
// to y as F32 or F16 (rounded as F32ToF16), with streaming stores (fenced) when `streaming`.
float F16ToF32RowMax(const uint16_t *in, float *out, size_t n);
double F16ToF32SumSquares(const uint16_t *in, float *out, size_t n);
void ScaleInto(const float *x, float factor, float *y, size_t n, bool streaming);
void ScaleInto(const float *x, float factor, uint16_t *y, size_t n, bool streaming);
void SubtractTwiceInto(const float *x, float first, float second, float *y, size_t n, bool streaming);
void SubtractTwiceInto(const float *x, float first, float second, uint16_t *y, size_t n, bool streaming);
// ScaleTimesInto also fetches `prefetch_bytes` from `prefetch` (the next row, or null) as
// ExpShiftedSum does.
void ScaleTimesInto(const float *x, float factor, const float *w, float *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes);
void ScaleTimesInto(const float *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes);

}  // namespace infinicts::ref::op::simd

#endif  // INFINICTS_REF_OP_CORE_SIMD_H
