// 4-bit values packed eight to an I32 word, as W4A16 checkpoints store them (spec section
// OP-INT4): how many values a word holds and which nibble holds each. The description of a
// packed tensor is its word tensor (I32) plus the axis the values run along and the order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tensor/host_tensor.h"

namespace infinicts {

inline constexpr size_t kInt4PerWord = 8;

// Sequential: value j in nibble j (GPTQ). Awq: value j in nibble (0, 4, 1, 5, 2, 6, 3, 7)[j].
enum class NibbleOrder { kSequential, kAwq };

// The nibble (bits 4i … 4i + 3) that holds value j of a word.
constexpr size_t NibbleOfValue(NibbleOrder order, size_t j) {
  constexpr std::array<size_t, kInt4PerWord> kAwqNibble = {0, 4, 1, 5, 2, 6, 3, 7};
  return order == NibbleOrder::kAwq ? kAwqNibble[j] : j;
}

// Value j (0 … 15) of `word`.
constexpr uint32_t Int4Value(uint32_t word, NibbleOrder order, size_t j) {
  return (word >> (4 * NibbleOfValue(order, j))) & 0xFu;
}

// Packs the 2-D tensor `values` (each 0 … 15, any dtype) into I32 words along `axis` (0: eight
// rows to a word, 1: eight columns): the words' tensor is [⌈R/8⌉, C] or [R, ⌈C/8⌉], the
// values past the end of a short last word zero.
HostTensor PackInt4(const HostTensor &values, size_t axis, NibbleOrder order);

// The inverse: the 2-D word tensor's values along `axis`, `count` of them (the words may hold
// more), as a contiguous U8 tensor.
HostTensor UnpackInt4(const HostTensor &words, size_t axis, size_t count, NibbleOrder order);

}  // namespace infinicts
