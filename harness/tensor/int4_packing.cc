#include "tensor/int4_packing.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace infinicts {
namespace {

void RequireTwoDims(const HostTensor &t, size_t axis, const char *what) {
  if (t.ndim() != 2 || axis > 1) {
    throw std::invalid_argument(std::string(what) + ": a 2-D tensor and an axis of 0 or 1");
  }
}

// Whether t is a contiguous row-major 2-D tensor of `dtype` from its storage's start, whose
// elements may be read and written in place.
bool IsPlainMatrix(const HostTensor &t, infiniDtype_t dtype) {
  return t.dtype() == dtype && t.ndim() == 2 && t.offset() == 0 &&
         t.strides() == Strides{static_cast<ptrdiff_t>(t.shape()[1]), 1};
}

}  // namespace

HostTensor PackInt4(const HostTensor &values, size_t axis, NibbleOrder order) {
  RequireTwoDims(values, axis, "PackInt4");
  const size_t rows = values.shape()[0], cols = values.shape()[1];
  Shape words_shape = {rows, cols};
  words_shape[axis] = (words_shape[axis] + kInt4PerWord - 1) / kInt4PerWord;
  std::vector<uint32_t> words(words_shape[0] * words_shape[1], 0);
  // A plain U8 matrix (the suites' values) is read in place: the weights of a layer hold tens
  // of millions of values.
  const uint8_t *plain = IsPlainMatrix(values, INFINI_DTYPE_U8) ? values.storage() : nullptr;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const int64_t v = plain != nullptr ? plain[r * cols + c] : static_cast<int64_t>(values.Get({r, c}));
      if (v < 0 || v > 15) throw std::invalid_argument("PackInt4: a value outside 0 … 15");
      const size_t along = axis == 0 ? r : c;
      const size_t word_r = axis == 0 ? r / kInt4PerWord : r, word_c = axis == 1 ? c / kInt4PerWord : c;
      words[word_r * words_shape[1] + word_c] |= static_cast<uint32_t>(v)
                                                 << (4 * NibbleOfValue(order, along % kInt4PerWord));
    }
  }
  HostTensor packed(INFINI_DTYPE_I32, words_shape);  // contiguous: the words' bits copied as they are
  std::memcpy(packed.storage(), words.data(), words.size() * sizeof(uint32_t));
  return packed;
}

HostTensor UnpackInt4(const HostTensor &words, size_t axis, size_t count, NibbleOrder order) {
  RequireTwoDims(words, axis, "UnpackInt4");
  Shape shape = words.shape();
  if (count > shape[axis] * kInt4PerWord) throw std::invalid_argument("UnpackInt4: more values than the words hold");
  shape[axis] = count;
  HostTensor values(INFINI_DTYPE_U8, shape);
  for (size_t r = 0; r < shape[0]; ++r) {
    for (size_t c = 0; c < shape[1]; ++c) {
      const size_t along = axis == 0 ? r : c;
      const size_t word_r = axis == 0 ? r / kInt4PerWord : r, word_c = axis == 1 ? c / kInt4PerWord : c;
      const auto word = static_cast<uint32_t>(words.GetInt({word_r, word_c}));
      values.SetInt({r, c}, Int4Value(word, order, along % kInt4PerWord));
    }
  }
  return values;
}

}  // namespace infinicts
