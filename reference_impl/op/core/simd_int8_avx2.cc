// The AVX2 + FMA bodies of core/simd_int8.h. Compiled alone with -mavx2 -mfma -mf16c (like
// core/simd_avx2.cc): it includes no header with inline functions of its own, so no AVX2
// copy of shared code can reach a CPU without AVX2; the scalar tails are written here.
#include "core/simd_int8.h"

#include <cstdlib>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

namespace infinicts::ref::op::simd {
namespace {

constexpr size_t kLanes = 8;

float ScalarTail(float v, float lo, float hi) {
  float kept = v >= lo ? v : lo;
  kept = kept <= hi ? kept : hi;
  const int whole = static_cast<int>(kept);
  const float dropped = kept - static_cast<float>(whole);
  return static_cast<float>(whole + (dropped >= 0.5f ? 1 : 0) - (dropped <= -0.5f ? 1 : 0));
}

float Largest(__m256 v) {
  float lanes[kLanes];
  _mm256_storeu_ps(lanes, v);
  float result = lanes[0];
  for (size_t k = 1; k < kLanes; ++k) result = lanes[k] > result ? lanes[k] : result;
  return result;
}

float Smallest(__m256 v) {
  float lanes[kLanes];
  _mm256_storeu_ps(lanes, v);
  float result = lanes[0];
  for (size_t k = 1; k < kLanes; ++k) result = lanes[k] < result ? lanes[k] : result;
  return result;
}

// Eight values quantised to int32 lanes: clamped (max_ps answers lo for a NaN first operand),
// truncated, then moved a step away from zero where the dropped part is a half or more.
__m256i QuantizeLanes(__m256 x, __m256 inv, __m256 zero, __m256 lo, __m256 hi) {
  const __m256 kept = _mm256_min_ps(_mm256_max_ps(_mm256_fmadd_ps(x, inv, zero), lo), hi);
  const __m256i whole = _mm256_cvttps_epi32(kept);
  const __m256 dropped = _mm256_sub_ps(kept, _mm256_cvtepi32_ps(whole));
  const __m256i up = _mm256_castps_si256(_mm256_cmp_ps(dropped, _mm256_set1_ps(0.5f), _CMP_GE_OQ));
  const __m256i down = _mm256_castps_si256(_mm256_cmp_ps(dropped, _mm256_set1_ps(-0.5f), _CMP_LE_OQ));
  return _mm256_add_epi32(_mm256_sub_epi32(whole, up), down);  // a true mask is -1
}

}  // namespace

float AbsMax(const float *x, size_t n) {
  const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  __m256 best = _mm256_setzero_ps(), other = best;
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {  // two chains: max_ps's latency, not its rate
    best = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(x + i), magnitude), best);
    other = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(x + i + kLanes), magnitude), other);
  }
  for (; i + kLanes <= n; i += kLanes) best = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(x + i), magnitude), best);
  float result = Largest(_mm256_max_ps(other, best));
  for (; i < n; ++i) {
    const float v = x[i] < 0.0f ? -x[i] : x[i];
    result = v > result ? v : result;
  }
  return result;
}

void MinMax(const float *x, size_t n, float *lo, float *hi) {
  __m256 low = _mm256_set1_ps(x[0]), high = low;
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 v = _mm256_loadu_ps(x + i);
    low = _mm256_min_ps(v, low);
    high = _mm256_max_ps(v, high);
  }
  float smallest = Smallest(low), largest = Largest(high);
  for (; i < n; ++i) {
    smallest = x[i] < smallest ? x[i] : smallest;
    largest = x[i] > largest ? x[i] : largest;
  }
  *lo = smallest;
  *hi = largest;
}

void QuantizeI8(const float *x, size_t n, float inv, float zero, float lo, float hi, int8_t *out) {
  const __m256 inv_v = _mm256_set1_ps(inv), zero_v = _mm256_set1_ps(zero);
  const __m256 lo_v = _mm256_set1_ps(lo), hi_v = _mm256_set1_ps(hi);
  // packs interleave the 128-bit halves: this puts the 32 bytes back in order.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  size_t i = 0;
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    const __m256i a = QuantizeLanes(_mm256_loadu_ps(x + i), inv_v, zero_v, lo_v, hi_v);
    const __m256i b = QuantizeLanes(_mm256_loadu_ps(x + i + kLanes), inv_v, zero_v, lo_v, hi_v);
    const __m256i c = QuantizeLanes(_mm256_loadu_ps(x + i + 2 * kLanes), inv_v, zero_v, lo_v, hi_v);
    const __m256i d = QuantizeLanes(_mm256_loadu_ps(x + i + 3 * kLanes), inv_v, zero_v, lo_v, hi_v);
    const __m256i bytes = _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + i), _mm256_permutevar8x32_epi32(bytes, order));
  }
  for (; i < n; ++i) out[i] = static_cast<int8_t>(ScalarTail(x[i] * inv + zero, lo, hi));
}

}  // namespace infinicts::ref::op::simd

#else  // the compiler cannot target AVX2 + FMA: simd::Enabled() is false and nothing here runs

namespace infinicts::ref::op::simd {
float AbsMax(const float *, size_t) { std::abort(); }
void MinMax(const float *, size_t, float *, float *) { std::abort(); }
void QuantizeI8(const float *, size_t, float, float, float, float, int8_t *) { std::abort(); }
}  // namespace infinicts::ref::op::simd

#endif
