// Vector kernels of the int4 dequantisers (AVX2 + F16C), one contiguous row at a time; callers
// use them only where simd::Enabled() (core/simd.h) and keep their portable loops otherwise.
// Each element is (q − z')·s with the difference exact and the product rounded once from F32
// to F16 or BF16 (nearest even), as spec section OP-INT4 asks; scales and out are the 16-bit
// patterns of that dtype.
#ifndef INFINICTS_REF_OP_CORE_SIMD_INT4_H
#define INFINICTS_REF_OP_CORE_SIMD_INT4_H

#include <cstddef>
#include <cstdint>

namespace infinicts::ref::op::simd {

// One DequantizeAWQ row of 8·words values: value j of q[w] minus value j of z[w] (AWQ's
// nibble order), times scales[8w + j].
void AwqRow(const int32_t *q, const int32_t *z, const uint16_t *scales, uint16_t *out, size_t words, bool bf16);

// One DequantizeGPTQ row of n values: nibble `nibble` of q[i] minus (value i mod 8 of z[i/8],
// sequential order, + 1), times scales[i].
void GptqRow(const int32_t *q, int nibble, const int32_t *z, const uint16_t *scales, uint16_t *out, size_t n,
             bool bf16);

}  // namespace infinicts::ref::op::simd

#endif  // INFINICTS_REF_OP_CORE_SIMD_INT4_H
