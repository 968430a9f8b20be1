// The AVX2 + FMA + F16C bodies of core/simd.h. CMake compiles this file alone with
// -mavx2 -mfma -mf16c (where the compiler takes them); it includes no header with inline
// functions of its own, so no AVX2 copy of shared code can reach a CPU without AVX2.
#include "core/simd.h"
#include "core/simd_avx512.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

namespace infinicts::ref::op::simd {
namespace {

constexpr size_t kLanes = 8;

bool ReadEnabled() {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return false;
  // F16C has no __builtin_cpu_supports name in older compilers: CPUID.1:ECX bit 29.
  unsigned eax = 1, ebx = 0, ecx = 0, edx = 0;
  __asm__("cpuid" : "+a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx));
  if (((ecx >> 29) & 1u) == 0) return false;
  const char *setting = std::getenv("INFINICTS_REF_SIMD");
  return setting == nullptr || std::strcmp(setting, "0") != 0;
}

bool ReadAvx512() {
  const char *setting = std::getenv("INFINICTS_REF_SIMD");
  return avx512::Supported() && (setting == nullptr || std::strcmp(setting, "avx2") != 0);
}

// Whether the entry points below forward to their AVX-512 forms (core/simd_avx512.h).
bool UseAvx512() {
  static const bool use = ReadAvx512();
  return use;
}

// exp(x) for 8 lanes. x = n ln2 + r, |r| <= ln2 / 2, exp(r) by its Taylor series to r^7
// (truncation below 0.1 ulp), 2^n applied in two halves so that results down in the
// subnormal range get one rounding. x is clamped to [-104, 89]: exp(-104) rounds to 0 and
// exp(89) overflows to Inf through that same scaling, so the special cases need no
// blends; max_ps and min_ps answer their second operand for a NaN, which keeps it NaN.
inline __m256 Exp8(__m256 x) {
  const __m256 clamped = _mm256_min_ps(_mm256_set1_ps(89.0f), _mm256_max_ps(_mm256_set1_ps(-104.0f), x));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(clamped, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), clamped);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.0f / 5040);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 720));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  const __m256i whole = _mm256_cvtps_epi32(n);
  const __m256i half = _mm256_srai_epi32(whole, 1);
  const __m256i rest = _mm256_sub_epi32(whole, half);
  const __m256i bias = _mm256_set1_epi32(127);
  const __m256 first = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(half, bias), 23));
  const __m256 second = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(rest, bias), 23));
  return _mm256_mul_ps(_mm256_mul_ps(p, first), second);
}

inline __m256 Sigmoid8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 e = Exp8(_mm256_sub_ps(_mm256_setzero_ps(), x));
  return _mm256_div_ps(one, _mm256_add_ps(one, e));
}

inline __m256 Silu8(__m256 x) {
  const __m256 e = Exp8(_mm256_sub_ps(_mm256_setzero_ps(), x));
  return _mm256_div_ps(x, _mm256_add_ps(_mm256_set1_ps(1.0f), e));
}

// Horner's rule with the coefficients highest degree first.
template <size_t N>
inline __m256 Polynomial(__m256 v, const float (&coefficients)[N]) {
  __m256 p = _mm256_set1_ps(coefficients[0]);
  for (size_t k = 1; k < N; ++k) p = _mm256_fmadd_ps(p, v, _mm256_set1_ps(coefficients[k]));
  return p;
}

// Lanes whose |x| exceeds this (t = x / sqrt(2) beyond the fitted 4), and NaNs, take the
// scalar formula: there gelu is x, or below 1e-8 |x| and better left to erfc.
constexpr float kGeluVectorLimit = 5.65f;

// gelu(x) = x/2 (1 + erf(t)), t = x / sqrt(2), for |t| < 4. Two Chebyshev fits
// (mpmath.chebyfit): |t| <= 1/2: erf(t) = t P(t^2), P of degree 6 fitted on [0, 1]
// (relative error 1e-9); |t| > 1/2: erfc(|t|) = exp(-t^2) R(|t|), R of degree 14 in
// z = (|t| - 2.25) / 1.75 on [1/2, 4] (relative error 1.4e-8). t^2 = x^2 / 2 is carried as hi + lo from x itself, so exp's
// argument is exact to F32 (t's own rounding would cost 12 ulps at |t| = 3.5). 1 + erf is
// then 1 + t P, 2 - erfc (t > 1/2) or erfc (t < -1/2): no cancellation where the result is
// small.
inline __m256 Gelu8(__m256 x) {
  static constexpr float kSmall[] = {7.875875063e-05f, -8.016864287e-04f, 5.189087423e-03f, -2.685421201e-02f,
                                     1.128359472e-01f, -3.761262667e-01f, 1.128379166e+00f};
  static constexpr float kLarge[] = {4.625081058e-05f, -1.103268663e-04f, 8.480956929e-05f, -1.790048067e-04f,
                                     6.245232599e-04f, -1.331224237e-03f, 2.568922845e-03f, -5.130929176e-03f,
                                     1.001375066e-02f, -1.877903808e-02f, 3.394195598e-02f, -5.896352139e-02f,
                                     9.797742850e-02f, -1.548513973e-01f, 2.310872587e-01f};
  const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
  const __m256 t = _mm256_mul_ps(x, _mm256_set1_ps(0.70710678118654752f));
  const __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), t);
  const __m256 near = _mm256_fmadd_ps(t, Polynomial(_mm256_mul_ps(t, t), kSmall), one);
  const __m256 clamped = _mm256_min_ps(_mm256_set1_ps(4.0f), _mm256_max_ps(half, magnitude));
  const __m256 z = _mm256_mul_ps(_mm256_sub_ps(clamped, _mm256_set1_ps(2.25f)), _mm256_set1_ps(1.0f / 1.75f));
  const __m256 square = _mm256_mul_ps(x, x);
  const __m256 square_low = _mm256_fmsub_ps(x, x, square);
  // exp(-(hi + lo) / 2) = exp(-hi / 2) (1 - lo / 2); the halvings are exact.
  const __m256 e = Exp8(_mm256_mul_ps(_mm256_set1_ps(-0.5f), square));
  const __m256 erfc = _mm256_mul_ps(_mm256_fnmadd_ps(e, _mm256_mul_ps(half, square_low), e), Polynomial(z, kLarge));
  const __m256 negative = _mm256_cmp_ps(t, _mm256_setzero_ps(), _CMP_LT_OQ);
  const __m256 far = _mm256_blendv_ps(_mm256_sub_ps(_mm256_set1_ps(2.0f), erfc), erfc, negative);
  const __m256 is_near = _mm256_cmp_ps(magnitude, half, _CMP_LE_OQ);
  const __m256 one_plus_erf = _mm256_blendv_ps(far, near, is_near);
  return _mm256_mul_ps(_mm256_mul_ps(half, x), one_plus_erf);
}

// The scalar form of ops/gelu.cc, for the lanes Gelu8 leaves out.
inline float GeluScalar(float x) {
  const double wide = x;
  return static_cast<float>(0.5 * wide * std::erfc(wide * -0.70710678118654752440));
}

// Gelu8 where |x| <= 5.65, the scalar formula in the other lanes (and NaNs).
inline __m256 GeluLanes(__m256 x) {
  __m256 result = Gelu8(x);
  const __m256 inside = _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), _mm256_set1_ps(kGeluVectorLimit),
                                      _CMP_LE_OQ);
  const int outside = ~_mm256_movemask_ps(inside) & 0xff;
  if (outside != 0) {
    alignas(32) float inputs[kLanes], lanes[kLanes];
    _mm256_store_ps(inputs, x);
    _mm256_store_ps(lanes, result);
    for (size_t k = 0; k < kLanes; ++k) {
      if ((outside >> k) & 1) lanes[k] = GeluScalar(inputs[k]);
    }
    result = _mm256_load_ps(lanes);
  }
  return result;
}

// Lanes [0, n) of a tail (n < 8) through a padded copy; the other lanes are zeros.
inline __m256 LoadTail(const float *x, size_t n) {
  float padded[kLanes] = {};
  std::memcpy(padded, x, n * sizeof(float));
  return _mm256_loadu_ps(padded);
}

inline void StoreTail(float *y, __m256 v, size_t n) {
  float padded[kLanes];
  _mm256_storeu_ps(padded, v);
  std::memcpy(y, padded, n * sizeof(float));
}

inline __m256d Widen(__m128 four) { return _mm256_cvtps_pd(four); }

}  // namespace

bool Enabled() {
  static const bool enabled = ReadEnabled();
  return enabled;
}

void F16ToF32(const uint16_t *in, float *out, size_t n) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + i))));
  }
  if (i < n) {
    uint16_t padded[kLanes] = {};
    std::memcpy(padded, in + i, (n - i) * sizeof(uint16_t));
    StoreTail(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(padded))), n - i);
  }
}

void F32ToF16(const float *in, uint16_t *out, size_t n) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m128i half = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), half);
  }
  if (i < n) {
    uint16_t padded[kLanes];
    _mm_storeu_si128(reinterpret_cast<__m128i *>(padded),
                     _mm256_cvtps_ph(LoadTail(in + i, n - i), _MM_FROUND_TO_NEAREST_INT));
    std::memcpy(out + i, padded, (n - i) * sizeof(uint16_t));
  }
}

void CopyStreaming(const void *in, void *out, size_t bytes) {
  const char *from = static_cast<const char *>(in);
  char *to = static_cast<char *>(out);
  const size_t head = std::min(bytes, (32 - reinterpret_cast<uintptr_t>(to) % 32) % 32);
  std::memcpy(to, from, head);
  size_t i = head;
  for (; i + 32 <= bytes; i += 32) {
    _mm256_stream_si256(reinterpret_cast<__m256i *>(to + i), _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + i)));
  }
  std::memcpy(to + i, from + i, bytes - i);
}

void StoreFence() { _mm_sfence(); }

void Transpose8x8Of32(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride) {
  const float *from = static_cast<const float *>(in);
  float *to = static_cast<float *>(out);
  __m256 row[8], pair[8], quad[8];
  for (int k = 0; k < 8; ++k) row[k] = _mm256_loadu_ps(from + k * in_stride);
  for (int k = 0; k < 8; k += 2) {  // pairs: (a0 b0 a1 b1 | a4 b4 a5 b5), (a2 b2 a3 b3 | a6 b6 a7 b7)
    pair[k] = _mm256_unpacklo_ps(row[k], row[k + 1]);
    pair[k + 1] = _mm256_unpackhi_ps(row[k], row[k + 1]);
  }
  for (int k = 0; k < 8; k += 4) {  // quads: four rows' elements j and j + 4 in each register
    for (int h = 0; h < 2; ++h) {
      const __m256 a = pair[k + h], b = pair[k + 2 + h];
      quad[k + 2 * h] = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 1, 0));
      quad[k + 2 * h + 1] = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 2, 3, 2));
    }
  }
  for (int j = 0; j < 4; ++j) {  // halves of rows 0-3 and 4-7 joined: columns j and j + 4
    _mm256_storeu_ps(to + j * out_stride, _mm256_permute2f128_ps(quad[j], quad[4 + j], 0x20));
    _mm256_storeu_ps(to + (j + 4) * out_stride, _mm256_permute2f128_ps(quad[j], quad[4 + j], 0x31));
  }
}

void Transpose8x8Of16(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride) {
  const uint16_t *from = static_cast<const uint16_t *>(in);
  uint16_t *to = static_cast<uint16_t *>(out);
  __m128i row[8], a[8], b[8];
  for (int k = 0; k < 8; ++k) row[k] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(from + k * in_stride));
  for (int k = 0; k < 4; ++k) {  // a[k]: rows 2k, 2k+1 interleaved, columns 0-3; a[4+k]: columns 4-7
    a[k] = _mm_unpacklo_epi16(row[2 * k], row[2 * k + 1]);
    a[4 + k] = _mm_unpackhi_epi16(row[2 * k], row[2 * k + 1]);
  }
  for (int g = 0; g < 8; g += 4) {  // b: four rows, two columns each
    b[g] = _mm_unpacklo_epi32(a[g], a[g + 1]);
    b[g + 1] = _mm_unpackhi_epi32(a[g], a[g + 1]);
    b[g + 2] = _mm_unpacklo_epi32(a[g + 2], a[g + 3]);
    b[g + 3] = _mm_unpackhi_epi32(a[g + 2], a[g + 3]);
  }
  for (int g = 0; g < 2; ++g) {  // eight rows, one column: columns 4g + {0, 1, 2, 3}
    __m128i *base = nullptr;
    const __m128i columns[4] = {_mm_unpacklo_epi64(b[4 * g], b[4 * g + 2]), _mm_unpackhi_epi64(b[4 * g], b[4 * g + 2]),
                                _mm_unpacklo_epi64(b[4 * g + 1], b[4 * g + 3]),
                                _mm_unpackhi_epi64(b[4 * g + 1], b[4 * g + 3])};
    for (int j = 0; j < 4; ++j) {
      base = reinterpret_cast<__m128i *>(to + (4 * g + j) * out_stride);
      _mm_storeu_si128(base, columns[j]);
    }
  }
}

float RowMax(const float *x, size_t n) {
  if (UseAvx512()) return avx512::RowMax(x, n);
  // max_ps answers its second operand when either is NaN: a NaN x leaves the maximum.
  __m256 best = _mm256_set1_ps(-__builtin_inff()), other = best;
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {  // two chains: max_ps's latency, not its rate
    best = _mm256_max_ps(_mm256_loadu_ps(x + i), best);
    other = _mm256_max_ps(_mm256_loadu_ps(x + i + kLanes), other);
  }
  for (; i + kLanes <= n; i += kLanes) best = _mm256_max_ps(_mm256_loadu_ps(x + i), best);
  best = _mm256_max_ps(other, best);
  float lanes[kLanes];
  _mm256_storeu_ps(lanes, best);
  float result = lanes[0];
  for (size_t k = 1; k < kLanes; ++k) result = lanes[k] > result ? lanes[k] : result;
  for (; i < n; ++i) result = x[i] > result ? x[i] : result;
  return result;
}

double ExpShiftedSum(const float *x, float shift, float *y, size_t n, const void *prefetch, size_t prefetch_bytes,
                     bool for_half) {
  if (UseAvx512()) return avx512::ExpShiftedSum(x, shift, y, n, prefetch, prefetch_bytes, for_half);
  // Named accumulators (an array of them spills to the stack under the register pressure
  // of Exp8); the tail's padding lanes are masked to add nothing.
  const __m256 s = _mm256_set1_ps(shift);
  __m256d low = _mm256_setzero_pd(), high = _mm256_setzero_pd();
  size_t i = 0;
  // Four vectors a step: their sum is formed in F32 as (e + f) + (g + h), two roundings
  // (at most an ulp of the group's sum), before the widening: a quarter of the conversions.
  const char *ahead = static_cast<const char *>(prefetch);
  size_t fetched = prefetch == nullptr ? prefetch_bytes : 0;
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    if (fetched < prefetch_bytes) {  // two 64-byte lines per 32 elements: as fast as this row's own
      _mm_prefetch(ahead + fetched, _MM_HINT_T0);
      _mm_prefetch(ahead + fetched + 64, _MM_HINT_T0);
      fetched += 128;
    }
    const __m256 e = Exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), s));
    const __m256 f = Exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i + kLanes), s));
    const __m256 g = Exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i + 2 * kLanes), s));
    const __m256 h = Exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i + 3 * kLanes), s));
    const __m256 group = _mm256_add_ps(_mm256_add_ps(e, f), _mm256_add_ps(g, h));
    low = _mm256_add_pd(low, Widen(_mm256_castps256_ps128(group)));
    high = _mm256_add_pd(high, Widen(_mm256_extractf128_ps(group, 1)));
    if (y != nullptr) {
      _mm256_storeu_ps(y + i, e);
      _mm256_storeu_ps(y + i + kLanes, f);
      _mm256_storeu_ps(y + i + 2 * kLanes, g);
      _mm256_storeu_ps(y + i + 3 * kLanes, h);
    }
  }
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 e = Exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), s));
    low = _mm256_add_pd(low, Widen(_mm256_castps256_ps128(e)));
    high = _mm256_add_pd(high, Widen(_mm256_extractf128_ps(e, 1)));
    if (y != nullptr) _mm256_storeu_ps(y + i, e);
  }
  if (i < n) {
    const size_t count = n - i;
    __m256 e = Exp8(_mm256_sub_ps(LoadTail(x + i, count), s));
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    e = _mm256_and_ps(e, _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), lane)));
    low = _mm256_add_pd(low, Widen(_mm256_castps256_ps128(e)));
    high = _mm256_add_pd(high, Widen(_mm256_extractf128_ps(e, 1)));
    if (y != nullptr) StoreTail(y + i, e, count);
  }
  double lanes[4];
  _mm256_storeu_pd(lanes, _mm256_add_pd(low, high));
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

double SumSquares(const float *x, size_t n) {
  if (UseAvx512()) return avx512::SumSquares(x, n);
  __m256d sums[4] = {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    for (size_t half = 0; half < 2; ++half) {
      const __m256 v = _mm256_loadu_ps(x + i + half * kLanes);
      const __m256d a = Widen(_mm256_castps256_ps128(v)), b = Widen(_mm256_extractf128_ps(v, 1));
      sums[2 * half] = _mm256_fmadd_pd(a, a, sums[2 * half]);
      sums[2 * half + 1] = _mm256_fmadd_pd(b, b, sums[2 * half + 1]);
    }
  }
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 v = _mm256_loadu_ps(x + i);
    const __m256d a = Widen(_mm256_castps256_ps128(v)), b = Widen(_mm256_extractf128_ps(v, 1));
    sums[0] = _mm256_fmadd_pd(a, a, sums[0]);
    sums[1] = _mm256_fmadd_pd(b, b, sums[1]);
  }
  double lanes[4];
  _mm256_storeu_pd(lanes, _mm256_add_pd(_mm256_add_pd(sums[0], sums[1]), _mm256_add_pd(sums[2], sums[3])));
  double sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
  for (; i < n; ++i) sum += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  return sum;
}


float F16ToF32RowMax(const uint16_t *in, float *out, size_t n) {
  if (UseAvx512()) return avx512::F16ToF32RowMax(in, out, n);
  __m256 best = _mm256_set1_ps(-__builtin_inff()), other = best;
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {  // value first: max_ps keeps `best` for a NaN value
    const __m256 a = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + i)));
    const __m256 b = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + i + kLanes)));
    _mm256_storeu_ps(out + i, a);
    _mm256_storeu_ps(out + i + kLanes, b);
    best = _mm256_max_ps(a, best);
    other = _mm256_max_ps(b, other);
  }
  best = _mm256_max_ps(other, best);
  float lanes[kLanes];
  _mm256_storeu_ps(lanes, best);
  float result = lanes[0];
  for (size_t k = 1; k < kLanes; ++k) result = lanes[k] > result ? lanes[k] : result;
  F16ToF32(in + i, out + i, n - i);
  for (; i < n; ++i) result = out[i] > result ? out[i] : result;
  return result;
}

double F16ToF32SumSquares(const uint16_t *in, float *out, size_t n) {
  if (UseAvx512()) return avx512::F16ToF32SumSquares(in, out, n);
  __m256d sums[4] = {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    for (size_t half = 0; half < 2; ++half) {
      const __m256 v = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + i + half * kLanes)));
      if (out != nullptr) _mm256_storeu_ps(out + i + half * kLanes, v);
      const __m256d a = Widen(_mm256_castps256_ps128(v)), b = Widen(_mm256_extractf128_ps(v, 1));
      sums[2 * half] = _mm256_fmadd_pd(a, a, sums[2 * half]);
      sums[2 * half + 1] = _mm256_fmadd_pd(b, b, sums[2 * half + 1]);
    }
  }
  double lanes[4];
  _mm256_storeu_pd(lanes, _mm256_add_pd(_mm256_add_pd(sums[0], sums[1]), _mm256_add_pd(sums[2], sums[3])));
  double sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
  for (; i < n; ++i) {
    const float value = _cvtsh_ss(in[i]);
    if (out != nullptr) out[i] = value;
    sum += static_cast<double>(value) * static_cast<double>(value);
  }
  return sum;
}

namespace {

inline void Put(float *y, __m256 v, bool streaming) {
  if (streaming) {
    _mm256_stream_ps(y, v);
  } else {
    _mm256_storeu_ps(y, v);
  }
}

inline void Put(uint16_t *y, __m256 v, bool streaming) {
  const __m128i half = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
  if (streaming) {
    _mm_stream_si128(reinterpret_cast<__m128i *>(y), half);
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(y), half);
  }
}

inline void PutPart(float *y, __m256 v, size_t count) { StoreTail(y, v, count); }

inline void PutPart(uint16_t *y, __m256 v, size_t count) {
  uint16_t padded[kLanes];
  _mm_storeu_si128(reinterpret_cast<__m128i *>(padded), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  std::memcpy(y, padded, count * sizeof(uint16_t));
}

// y[i] = lanes of kernel(i, count) for i in steps of 8 (count < 8 only for a partial
// block, whose inputs the kernel loads padded). Streaming stores need 32 bytes (F32) or
// 16 bytes (F16) of alignment: a partial head block reaches it first.
template <class Out, class Kernel>
void StoreBlocks(Out *y, size_t n, bool streaming, Kernel kernel) {
  size_t i = 0;
  if (streaming) {
    constexpr size_t kAlignment = kLanes * sizeof(Out);
    const size_t offset = (reinterpret_cast<uintptr_t>(y) % kAlignment) / sizeof(Out);
    const size_t head = offset == 0 ? 0 : (n < kLanes - offset ? n : kLanes - offset);
    if (head > 0) PutPart(y, kernel(0, head), head);
    i = head;
  }
  for (; i + kLanes <= n; i += kLanes) Put(y + i, kernel(i, kLanes), streaming);
  if (i < n) PutPart(y + i, kernel(i, n - i), n - i);
  if (streaming) _mm_sfence();
}

inline __m256 LoadPart(const float *x, size_t count) { return count == kLanes ? _mm256_loadu_ps(x) : LoadTail(x, count); }

inline __m256 LoadPart(const uint16_t *x, size_t count) {
  if (count == kLanes) return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(x)));
  uint16_t padded[kLanes] = {};
  std::memcpy(padded, x, count * sizeof(uint16_t));
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(padded)));
}

template <class Out>
void ScaleIntoAny(const float *x, float factor, Out *y, size_t n, bool streaming) {
  const __m256 f = _mm256_set1_ps(factor);
  StoreBlocks(y, n, streaming, [&](size_t i, size_t count) { return _mm256_mul_ps(LoadPart(x + i, count), f); });
}

template <class Out>
void SubtractTwiceIntoAny(const float *x, float first, float second, Out *y, size_t n, bool streaming) {
  const __m256 a = _mm256_set1_ps(first), b = _mm256_set1_ps(second);
  StoreBlocks(y, n, streaming,
              [&](size_t i, size_t count) { return _mm256_sub_ps(_mm256_sub_ps(LoadPart(x + i, count), a), b); });
}

template <class In, class Out>
void ScaleTimesIntoAny(const In *x, float factor, const float *w, Out *y, size_t n, bool streaming,
                       const void *prefetch, size_t prefetch_bytes) {
  const __m256 f = _mm256_set1_ps(factor);
  const char *ahead = static_cast<const char *>(prefetch);
  size_t fetched = prefetch == nullptr ? prefetch_bytes : 0;
  StoreBlocks(y, n, streaming, [&](size_t i, size_t count) {
    if (fetched < prefetch_bytes && i % (2 * kLanes) == 0) {  // a line per 16 elements
      _mm_prefetch(ahead + fetched, _MM_HINT_T0);
      fetched += 64;
    }
    return _mm256_mul_ps(_mm256_mul_ps(LoadPart(x + i, count), f), LoadPart(w + i, count));
  });
}

template <class Bits, size_t NumIn, class Kernel>
void MapTyped(const void *const *in, void *out, size_t n, bool streaming, Kernel kernel) {
  const Bits *x[NumIn];
  for (size_t k = 0; k < NumIn; ++k) x[k] = static_cast<const Bits *>(in[k]);
  StoreBlocks(static_cast<Bits *>(out), n, streaming, [&](size_t i, size_t count) {
    __m256 v[NumIn];
    for (size_t k = 0; k < NumIn; ++k) v[k] = LoadPart(x[k] + i, count);
    return kernel(v);
  });
}

template <class Bits>
void MapAny(MapOp op, const void *const *in, void *out, size_t n, bool streaming) {
  switch (op) {
    case MapOp::kAdd:
      return MapTyped<Bits, 2>(in, out, n, streaming, [](const __m256 *v) { return _mm256_add_ps(v[0], v[1]); });
    case MapOp::kSub:
      return MapTyped<Bits, 2>(in, out, n, streaming, [](const __m256 *v) { return _mm256_sub_ps(v[0], v[1]); });
    case MapOp::kMul:
      return MapTyped<Bits, 2>(in, out, n, streaming, [](const __m256 *v) { return _mm256_mul_ps(v[0], v[1]); });
    case MapOp::kSwiGLU:
      return MapTyped<Bits, 2>(in, out, n, streaming, [](const __m256 *v) { return _mm256_mul_ps(v[0], Silu8(v[1])); });
    case MapOp::kRelu:  // x where x > 0 or NaN (not x <= 0), else +0 (so -0 gives +0)
      return MapTyped<Bits, 1>(in, out, n, streaming, [](const __m256 *v) {
        return _mm256_and_ps(v[0], _mm256_cmp_ps(v[0], _mm256_setzero_ps(), _CMP_NLE_UQ));
      });
    case MapOp::kSilu:
      return MapTyped<Bits, 1>(in, out, n, streaming, [](const __m256 *v) { return Silu8(v[0]); });
    case MapOp::kGelu:
      return MapTyped<Bits, 1>(in, out, n, streaming, [](const __m256 *v) { return GeluLanes(v[0]); });
    case MapOp::kSigmoid:
      return MapTyped<Bits, 1>(in, out, n, streaming, [](const __m256 *v) { return Sigmoid8(v[0]); });
  }
}

}  // namespace

void Map(MapOp op, bool half, const void *const *in, void *out, size_t n, bool streaming) {
  if (UseAvx512()) return avx512::Map(op, half, in, out, n, streaming);
  if (half) {
    MapAny<uint16_t>(op, in, out, n, streaming);
  } else {
    MapAny<float>(op, in, out, n, streaming);
  }
}

bool HasLineTransposes() { return Enabled() && UseAvx512(); }

void TransposeLinesOf32(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride) {
  avx512::TransposeLinesOf32(in, in_stride, out, out_stride);
}

void TransposeLinesOf16(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride) {
  avx512::TransposeLinesOf16(in, in_stride, out, out_stride);
}

void ScaleInto(const float *x, float factor, float *y, size_t n, bool streaming) {
  if (UseAvx512()) return avx512::ScaleInto(x, factor, y, n, streaming);
  ScaleIntoAny(x, factor, y, n, streaming);
}
void ScaleInto(const float *x, float factor, uint16_t *y, size_t n, bool streaming) {
  if (UseAvx512()) return avx512::ScaleInto(x, factor, y, n, streaming);
  ScaleIntoAny(x, factor, y, n, streaming);
}
void SubtractTwiceInto(const float *x, float first, float second, float *y, size_t n, bool streaming) {
  if (UseAvx512()) return avx512::SubtractTwiceInto(x, first, second, y, n, streaming);
  SubtractTwiceIntoAny(x, first, second, y, n, streaming);
}
void SubtractTwiceInto(const float *x, float first, float second, uint16_t *y, size_t n, bool streaming) {
  if (UseAvx512()) return avx512::SubtractTwiceInto(x, first, second, y, n, streaming);
  SubtractTwiceIntoAny(x, first, second, y, n, streaming);
}
void ScaleTimesInto(const float *x, float factor, const float *w, float *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes) {
  if (UseAvx512()) return avx512::ScaleTimesInto(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
  ScaleTimesIntoAny(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
}
void ScaleTimesInto(const float *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes) {
  if (UseAvx512()) return avx512::ScaleTimesInto(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
  ScaleTimesIntoAny(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
}
void ScaleTimesInto(const uint16_t *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes) {
  if (UseAvx512()) return avx512::ScaleTimesInto(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
  ScaleTimesIntoAny(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
}

}  // namespace infinicts::ref::op::simd

#else  // the compiler cannot target AVX2 + FMA + F16C: Enabled() is false, nothing else runs

namespace infinicts::ref::op::simd {
namespace {
[[noreturn]] void Unavailable() { std::abort(); }
}  // namespace
bool Enabled() { return false; }
void F16ToF32(const uint16_t *, float *, size_t) { Unavailable(); }
void F32ToF16(const float *, uint16_t *, size_t) { Unavailable(); }
void Map(MapOp, bool, const void *const *, void *, size_t, bool) { Unavailable(); }
void CopyStreaming(const void *, void *, size_t) { Unavailable(); }
void StoreFence() { Unavailable(); }
void Transpose8x8Of32(const void *, ptrdiff_t, void *, ptrdiff_t) { Unavailable(); }
void Transpose8x8Of16(const void *, ptrdiff_t, void *, ptrdiff_t) { Unavailable(); }
bool HasLineTransposes() { return false; }
void TransposeLinesOf32(const void *, ptrdiff_t, void *, ptrdiff_t) { Unavailable(); }
void TransposeLinesOf16(const void *, ptrdiff_t, void *, ptrdiff_t) { Unavailable(); }
float RowMax(const float *, size_t) { Unavailable(); }
double ExpShiftedSum(const float *, float, float *, size_t, const void *, size_t, bool) { Unavailable(); }
double SumSquares(const float *, size_t) { Unavailable(); }
float F16ToF32RowMax(const uint16_t *, float *, size_t) { Unavailable(); }
double F16ToF32SumSquares(const uint16_t *, float *, size_t) { Unavailable(); }
void ScaleInto(const float *, float, float *, size_t, bool) { Unavailable(); }
void ScaleInto(const float *, float, uint16_t *, size_t, bool) { Unavailable(); }
void SubtractTwiceInto(const float *, float, float, float *, size_t, bool) { Unavailable(); }
void SubtractTwiceInto(const float *, float, float, uint16_t *, size_t, bool) { Unavailable(); }
void ScaleTimesInto(const float *, float, const float *, float *, size_t, bool, const void *, size_t) {
  Unavailable();
}
void ScaleTimesInto(const float *, float, const float *, uint16_t *, size_t, bool, const void *, size_t) {
  Unavailable();
}
void ScaleTimesInto(const uint16_t *, float, const float *, uint16_t *, size_t, bool, const void *, size_t) {
  Unavailable();
}
}  // namespace infinicts::ref::op::simd

#endif
