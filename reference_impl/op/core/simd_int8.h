// Vector kernels of the int8 quantisers (AVX2 + FMA), for contiguous F32 runs; callers use
// them only where simd::Enabled() (core/simd.h) and keep their portable loops otherwise. The
// steps are core/int8_steps.h's, eight lanes at a time (the product and the zero point's sum
// fused, as the spec allows); NaN is ignored by the maxima and saturates to lo, as there.
#ifndef INFINICTS_REF_OP_CORE_SIMD_INT8_H
#define INFINICTS_REF_OP_CORE_SIMD_INT8_H

#include <cstddef>
#include <cstdint>

namespace infinicts::ref::op::simd {

float AbsMax(const float *x, size_t n);                   // 0 for n == 0
void MinMax(const float *x, size_t n, float *lo, float *hi);  // n >= 1
// out[i] = clamp(rha(x[i]·inv + zero), lo, hi).
void QuantizeI8(const float *x, size_t n, float inv, float zero, float lo, float hi, int8_t *out);

}  // namespace infinicts::ref::op::simd

#endif  // INFINICTS_REF_OP_CORE_SIMD_INT8_H
