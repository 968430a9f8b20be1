// The AVX2 + F16C bodies of core/simd_int4.h. Compiled alone with -mavx2 -mfma -mf16c (like
// core/simd_avx2.cc): it includes no header with inline functions of its own, so no AVX2 copy
// of shared code can reach a CPU without AVX2. A row's last partial group of eight goes
// through the same lanes from a padded copy.
#include "core/simd_int4.h"

#include <cstdlib>
#include <cstring>

#if defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>

namespace infinicts::ref::op::simd {
namespace {

constexpr size_t kLanes = 8;

__m256 LoadScales(const uint16_t *scales, bool bf16) {
  const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i *>(scales));
  if (!bf16) return _mm256_cvtph_ps(bits);
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
}

// The eight products, rounded to nearest even into the 16-bit dtype.
void StoreProducts(__m256i differences, const uint16_t *scales, uint16_t *out, bool bf16) {
  const __m256 product = _mm256_mul_ps(_mm256_cvtepi32_ps(differences), LoadScales(scales, bf16));
  __m128i bits;
  if (!bf16) {
    bits = _mm256_cvtps_ph(product, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  } else {
    // Round to nearest even on the top 16 bits (the products are finite).
    const __m256i raw = _mm256_castps_si256(product);
    const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(raw, 16), _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(raw, _mm256_add_epi32(_mm256_set1_epi32(0x7FFF), odd)), 16);
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(rounded, rounded), 0x08);
    bits = _mm256_castsi256_si128(packed);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i *>(out), bits);
}

__m256i Nibbles(__m256i words, __m256i shifts) {
  return _mm256_and_si256(_mm256_srlv_epi32(words, shifts), _mm256_set1_epi32(0xF));
}

// GPTQ's eight columns from q[0 .. 8) and one zero word.
void GptqEight(const int32_t *q, __m128i q_shift, int32_t z, const __m256i sequential, const uint16_t *scales,
               uint16_t *out, bool bf16) {
  const __m256i words = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(q));
  const __m256i values = _mm256_and_si256(_mm256_srl_epi32(words, q_shift), _mm256_set1_epi32(0xF));
  const __m256i zeros = _mm256_add_epi32(Nibbles(_mm256_set1_epi32(z), sequential), _mm256_set1_epi32(1));
  StoreProducts(_mm256_sub_epi32(values, zeros), scales, out, bf16);
}

}  // namespace

void AwqRow(const int32_t *q, const int32_t *z, const uint16_t *scales, uint16_t *out, size_t words, bool bf16) {
  // Value j of an AWQ word sits in nibble (0, 4, 1, 5, 2, 6, 3, 7)[j].
  const __m256i shifts = _mm256_setr_epi32(0, 16, 4, 20, 8, 24, 12, 28);
  for (size_t w = 0; w < words; ++w) {
    const __m256i values = Nibbles(_mm256_set1_epi32(q[w]), shifts);
    const __m256i zeros = Nibbles(_mm256_set1_epi32(z[w]), shifts);
    StoreProducts(_mm256_sub_epi32(values, zeros), scales + w * kLanes, out + w * kLanes, bf16);
  }
}

void GptqRow(const int32_t *q, int nibble, const int32_t *z, const uint16_t *scales, uint16_t *out, size_t n,
             bool bf16) {
  const __m256i sequential = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
  const __m128i q_shift = _mm_cvtsi32_si128(4 * nibble);
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) GptqEight(q + i, q_shift, z[i / kLanes], sequential, scales + i, out + i, bf16);
  if (i == n) return;
  int32_t q_tail[kLanes] = {};
  uint16_t scales_tail[kLanes] = {}, out_tail[kLanes];
  const size_t rest = n - i;
  std::memcpy(q_tail, q + i, rest * sizeof(int32_t));
  std::memcpy(scales_tail, scales + i, rest * sizeof(uint16_t));
  GptqEight(q_tail, q_shift, z[i / kLanes], sequential, scales_tail, out_tail, bf16);
  std::memcpy(out + i, out_tail, rest * sizeof(uint16_t));
}

}  // namespace infinicts::ref::op::simd

#else  // the compiler cannot target AVX2 + F16C: simd::Enabled() is false and nothing here runs

namespace infinicts::ref::op::simd {
void AwqRow(const int32_t *, const int32_t *, const uint16_t *, uint16_t *, size_t, bool) { std::abort(); }
void GptqRow(const int32_t *, int, const int32_t *, const uint16_t *, uint16_t *, size_t, bool) { std::abort(); }
}  // namespace infinicts::ref::op::simd

#endif
