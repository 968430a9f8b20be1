// The AVX-512 form of the one-pass kernels, F32, F16 and BF16 (both reduced in F32 and
// rounded once, as reduce.cc does): this file alone is compiled with -mavx512f, and
// reduce_to_all.cc calls it only on a CPU that has it.
#include <immintrin.h>

#include "ccl/reduce_to_all_kernel.h"

namespace infinicts::ref::ccl {
namespace {

struct Avx512 {
  using Vector = __m512;
  static constexpr size_t kLanes = 16;
  static Vector Add(Vector a, Vector b) { return _mm512_add_ps(a, b); }
  static Vector Mul(Vector a, Vector b) { return _mm512_mul_ps(a, b); }
  static Vector Max(Vector a, Vector b) { return _mm512_max_ps(a, b); }
  static Vector Min(Vector a, Vector b) { return _mm512_min_ps(a, b); }
};

struct F32 {
  using Stored = float;
  static __m512 Load(const float *from) { return _mm512_loadu_ps(from); }
  static void Store(float *to, __m512 value) { _mm512_storeu_ps(to, value); }
  static void Stream(float *to, __m512 value) { _mm512_stream_ps(to, value); }
};

// F16 through the F16C conversions of AVX-512F: exact widening; narrowing rounds to
// nearest even, overflows to Inf, keeps subnormals and quiets NaN, as FloatToHalf does.
struct F16 {
  using Stored = uint16_t;
  static __m512 Load(const uint16_t *from) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(from)));
  }
  static __m256i Narrow(__m512 value) { return _mm512_cvtps_ph(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static void Store(uint16_t *to, __m512 value) { _mm256_storeu_si256(reinterpret_cast<__m256i *>(to), Narrow(value)); }
  static void Stream(uint16_t *to, __m512 value) { _mm256_stream_si256(reinterpret_cast<__m256i *>(to), Narrow(value)); }
};

// BF16: the upper half of an F32; narrowing rounds to nearest even on the bits and quiets
// NaN (sets the top mantissa bit), as FloatToBfloat16 does.
struct Bf16 {
  using Stored = uint16_t;
  static __m512 Load(const uint16_t *from) {
    const __m512i widened = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(from)));
    return _mm512_castsi512_ps(_mm512_slli_epi32(widened, 16));
  }
  static __m256i Narrow(__m512 value) {
    const __m512i bits = _mm512_castps_si512(value);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(bits, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), odd)), 16);
    const __m512i quiet_nan = _mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x40));
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff)),
                                                  _mm512_set1_epi32(0x7f800000));
    return _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, rounded, quiet_nan));
  }
  static void Store(uint16_t *to, __m512 value) { _mm256_storeu_si256(reinterpret_cast<__m256i *>(to), Narrow(value)); }
  static void Stream(uint16_t *to, __m512 value) { _mm256_stream_si256(reinterpret_cast<__m256i *>(to), Narrow(value)); }
};

}  // namespace

ReduceToAllFunction FindReduceToAllAvx512(int dtype, int op) {
  switch (dtype) {
    case INFINI_DTYPE_F32:
      return KernelFor<Avx512, F32>(op);
    case INFINI_DTYPE_F16:
      return KernelFor<Avx512, F16>(op);
    case INFINI_DTYPE_BF16:
      return KernelFor<Avx512, Bf16>(op);
    default:
      return nullptr;
  }
}

}  // namespace infinicts::ref::ccl
