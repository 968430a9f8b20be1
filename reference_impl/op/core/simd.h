// Vector kernels for the hot contiguous paths (AVX2 + FMA + F16C, and AVX-512 where the
// CPU has it), chosen at run time: Enabled() is true only when they were compiled in and
// this CPU has AVX2, FMA and F16C. INFINICTS_REF_SIMD in the environment picks a level:
// 0 turns the kernels off, avx2 keeps them at AVX2 on an AVX-512 CPU (tests compare the
// paths). Callers keep their portable loops as the fallback. Every kernel takes contiguous
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

// Outputs of at least this many bytes are written with non-temporal stores: far larger
// than the caches, they would only evict what the inputs need, and a plain store reads
// every output line before writing it. One threshold for every operator that streams.
constexpr size_t kStreamingOutputBytes = size_t(8) << 20;

void F16ToF32(const uint16_t *in, float *out, size_t n);
void F32ToF16(const float *in, uint16_t *out, size_t n);

// The elementwise operators of ops/elementwise.h on contiguous arrays, in one pass: each
// input element read once (F16 widened to F32), the F32 result computed in registers and
// written once (F16: rounded to nearest even). `in` holds 1 or 2 arrays as the operator
// takes; all arrays F16 when `half`, else F32. With `streaming` the output is written with
// non-temporal stores (no read for ownership, no cache pollution) and fenced: for outputs
// far larger than the caches.
enum class MapOp { kAdd, kSub, kMul, kSwiGLU, kRelu, kSilu, kGelu, kSigmoid };
void Map(MapOp op, bool half, const void *const *in, void *out, size_t n, bool streaming);

// Whether streaming stores pay for `op` on outputs far larger than the caches. Only for the
// operators that do little arithmetic per byte: a streaming store stalls the exp- and
// erf-based kernels (measured: bench/README.md, "Kernel choices").
constexpr bool StreamsLargeOutputs(MapOp op) {
  return op == MapOp::kAdd || op == MapOp::kSub || op == MapOp::kMul || op == MapOp::kRelu;
}

// out[0 .. bytes) = in[0 .. bytes) with non-temporal stores for the whole 32-byte-aligned
// part of out (plain copies at its two ends), not fenced: the caller issues StoreFence()
// after its last streaming copy, before the data may be read elsewhere.
void CopyStreaming(const void *in, void *out, size_t bytes);
void StoreFence();

// out[j * out_stride + k] = in[k * in_stride + j] for an 8 x 8 block of 4-byte or 2-byte
// elements (strides in elements): Rearrange's transposed tiles.
void Transpose8x8Of32(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);
void Transpose8x8Of16(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);

// Transposes whose every output row is one whole 64-byte line, written with a streaming
// store (not fenced; see CopyStreaming): 16 x 16 4-byte elements, or 32 input rows of 16
// 2-byte elements into 16 rows of 32. out and out_stride * element size must be multiples
// of 64 bytes. Only where HasLineTransposes() (AVX-512 in use): with them a transposed
// Rearrange writes its output lines straight from registers, without the staging buffer
// that 32-byte rows need.
bool HasLineTransposes();
void TransposeLinesOf32(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);
void TransposeLinesOf16(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride);

// Map's operators: Add a + b, Sub a - b, Mul a * b, Relu x > 0 or NaN ? x : +0,
// Sigmoid 1 / (1 + exp(-x)), Silu x / (1 + exp(-x)), SwiGLU a * silu(b), Gelu
// x/2 (1 + erf(x / sqrt(2))) within a few ulps of F32 (fits described in simd_avx2.cc;
// |x| > 5.65, Inf and NaN through the scalar formula).

// Row helpers of the softmaxes and RMSNorm.
float RowMax(const float *x, size_t n);  // NaNs ignored, as fmax does; -Inf for n == 0
// y = exp(x - shift) when y is not null; answers the sum of exp(x - shift) in F64.
// `prefetch`, when not null: the first `prefetch_bytes` from it (the next row) are
// fetched into the cache a line at a time while this compute-bound pass runs.
// `for_half`: the results are only used for F16 outputs, so an exp good to 4e-6 relative
// (0.008 of an F16 ulp) may be used where it is faster.
double ExpShiftedSum(const float *x, float shift, float *y, size_t n, const void *prefetch = nullptr,
                     size_t prefetch_bytes = 0, bool for_half = false);
double SumSquares(const float *x, size_t n);                                  // in F64

// Fused passes, so that a row is swept fewer times. The first two convert an F16 row to
// F32 (out; for the second, out may be null: the sum only) and answer RowMax or SumSquares
// of it (the latter may sum in F32 lanes for a block before F64: good to 2e-6 relative,
// for results rounded to F16). The "Into" forms compute, in F32, y = x * factor,
// y = (x - first) - second or y = (x * factor) * w (x F32, or F16 widened exactly) and
// write it straight to y as F32 or F16 (rounded as F32ToF16), with streaming stores
// (fenced) when `streaming`.
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
void ScaleTimesInto(const uint16_t *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes);

}  // namespace infinicts::ref::op::simd

#endif  // INFINICTS_REF_OP_CORE_SIMD_H
