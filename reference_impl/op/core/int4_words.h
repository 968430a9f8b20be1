// The 4-bit values of W4A16 checkpoints, eight to an I32 word (spec section OP-INT4), and
// where DequantizeAWQ's and DequantizeGPTQ's element (k, n) finds its value, zero point and
// scale: plain host and device code, so the CPU kernels and the CUDA kernels read the words
// alike (tested on the CPU by tests/reference_cuda/int4_dequant_logic_test.cc).
#ifndef INFINICTS_REF_OP_CORE_INT4_WORDS_H
#define INFINICTS_REF_OP_CORE_INT4_WORDS_H

#include <cstdint>

#include "core/host_device.h"

namespace infinicts::ref::op {

constexpr int64_t kValuesPerWord = 8;

// The nibble that holds value j of an AWQ word: AWQ packs values 0 … 7 into nibbles
// 0, 4, 1, 5, 2, 6, 3, 7.
INFINICTS_HOST_DEVICE constexpr int AwqNibble(int64_t j) { return static_cast<int>(((j & 1) << 2) | (j >> 1)); }

// Nibble i of a word, unsigned (the word's sign bit is nibble 7's top bit).
INFINICTS_HOST_DEVICE constexpr int NibbleAt(int32_t word, int i) {
  return static_cast<int>((static_cast<uint32_t>(word) >> (4 * i)) & 0xFu);
}

// Sizes of one problem: out [k, n]; AWQ's rows in groups of group_size; the zero words per
// group row (AWQ: n/8 and qweight alike; GPTQ: ⌈n/8⌉).
struct Int4Geometry {
  int64_t k, n, groups, group_size, zero_words;
};

// One element's integer q − z' and the index of its scale in scales [groups, n]; false where
// GPTQ's g_idx names no group (the element has no defined value).
struct Int4Element {
  int difference;
  int64_t scale_index;
};

INFINICTS_HOST_DEVICE inline Int4Element AwqElement(const Int4Geometry &g, const int32_t *qweight, const int32_t *zeros,
                                                    int64_t k, int64_t n) {
  const int64_t group = k / g.group_size, word = n / kValuesPerWord;
  const int nibble = AwqNibble(n % kValuesPerWord);
  const int q = NibbleAt(qweight[k * g.zero_words + word], nibble);
  const int z = NibbleAt(zeros[group * g.zero_words + word], nibble);
  return {q - z, group * g.n + n};
}

INFINICTS_HOST_DEVICE inline bool GptqElement(const Int4Geometry &g, const int32_t *qweight, const int32_t *zeros,
                                              const int32_t *g_idx, int64_t k, int64_t n, Int4Element *element) {
  const int64_t group = g_idx[k];
  if (group < 0 || group >= g.groups) return false;
  const int q = NibbleAt(qweight[(k / kValuesPerWord) * g.n + n], static_cast<int>(k % kValuesPerWord));
  const int z = NibbleAt(zeros[group * g.zero_words + n / kValuesPerWord], static_cast<int>(n % kValuesPerWord));
  *element = {q - (z + 1), group * g.n + n};
  return true;
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_INT4_WORDS_H
