// The int8 quantisers' and I8Gemm's arithmetic (docs/spec/op.md, OP-INT8 and OP-I8GEMM), one F32
// step at a time, for the CPU kernels and the CUDA kernels alike (the host tests run it too):
// the scales, rounding a half away from zero, the saturation to the int8 range, and I8Gemm's
// scaling of its integer sums.
#ifndef INFINICTS_REF_OP_CORE_INT8_STEPS_H
#define INFINICTS_REF_OP_CORE_INT8_STEPS_H

#include <math.h>
#include <stdint.h>

#include "core/host_device.h"

namespace infinicts::ref::op {

// The smallest per-row scale: rows of zeros (or nearly) still divide by something.
constexpr float kInt8ScaleFloor = 1e-8f;

// rha(v): truncate, then step away from zero when the dropped part is a half or more. Exact
// for every float (v − trunc(v) is exact), unlike ⌊|v| + 0.5⌋, which rounds 0.49999997 up.
INFINICTS_HOST_DEVICE inline float RoundHalfAwayFromZero(float v) {
  const float whole = truncf(v);
  return fabsf(v - whole) >= 0.5f ? whole + copysignf(1.0f, v) : whole;
}

// clamp(rha(v), lo, hi) as int8. Clamping first keeps the conversion defined (and, with integer
// bounds, gives what rounding first would); the rounding is rha's, by the integer conversion
// (toward zero) and the dropped part, which vectorises where truncf would be a call. NaN
// (never in the spec's data) maps to lo.
INFINICTS_HOST_DEVICE inline int8_t SaturateToI8(float v, float lo, float hi) {
  float kept = v >= lo ? v : lo;
  kept = kept <= hi ? kept : hi;
  const int whole = static_cast<int>(kept);
  const float dropped = kept - static_cast<float>(whole);
  return static_cast<int8_t>(whole + (dropped >= 0.5f ? 1 : 0) - (dropped <= -0.5f ? 1 : 0));
}

// Symmetric: s = max(max|x| / 127, floor); the floor is 0 for the per-tensor form.
INFINICTS_HOST_DEVICE inline float SymmetricScale(float max_abs, float floor_value) {
  const float scale = max_abs / 127.0f;
  return scale < floor_value ? floor_value : scale;
}

// Asymmetric: s = max((hi − lo) / 255, floor), the zero point z = −lo·(1/s) − 128.
INFINICTS_HOST_DEVICE inline float AsymmetricScale(float hi, float lo) {
  const float range = hi - lo;
  const float scale = range / 255.0f;
  return scale < kInt8ScaleFloor ? kInt8ScaleFloor : scale;
}
INFINICTS_HOST_DEVICE inline float AsymmetricZero(float lo, float inv_scale) { return -lo * inv_scale - 128.0f; }

// I8Gemm's way out (OP-I8GEMM-4): the exact int32 sum scaled by its row's and column's scales
// and the bias added, in InfiniCore's order of F32 steps, before the one rounding to out's dtype.
INFINICTS_HOST_DEVICE inline float I8GemmScaled(int32_t sum, float x_scale, float weights_scale, float bias) {
  return x_scale * weights_scale * static_cast<float>(sum) + bias;
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_INT8_STEPS_H
