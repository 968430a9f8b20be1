// The copy both KV-cache writers (KVCaching, PagedCaching) are made of: runs of rows of one
// head's entries copied bit for bit between strided layouts (no conversion: a copy keeps
// every bit of every value, NaN payloads included).
#ifndef INFINICTS_REF_OP_OPS_CACHE_ROWS_H
#define INFINICTS_REF_OP_OPS_CACHE_ROWS_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/dtype.h"

namespace infinicts::ref::op {

// One operand of a row copy: the first row's first element (in bytes) and the strides, in
// elements, between rows and between the elements of a row.
struct RowRun {
  unsigned char *dst;
  ptrdiff_t dst_row, dst_step;
  const unsigned char *src;
  ptrdiff_t src_row, src_step;
};

template <class Bits>
void CopyStridedRows(const RowRun &run, size_t rows, size_t length) {
  for (size_t r = 0; r < rows; ++r) {
    Bits *dst = reinterpret_cast<Bits *>(run.dst) + static_cast<ptrdiff_t>(r) * run.dst_row;
    const Bits *src = reinterpret_cast<const Bits *>(run.src) + static_cast<ptrdiff_t>(r) * run.src_row;
    for (size_t j = 0; j < length; ++j) {
      const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
      dst[jj * run.dst_step] = src[jj * run.src_step];
    }
  }
}

// `rows` rows of `length` elements of `element_size` bytes (2 or 4): one memcpy when both
// operands hold the rows back to back, a memcpy per row when the rows are contiguous, else
// element by element.
inline void CopyRows(const RowRun &run, size_t rows, size_t length, size_t element_size) {
  if (rows == 0 || length == 0) return;
  if (run.dst_step == 1 && run.src_step == 1) {
    const ptrdiff_t packed = static_cast<ptrdiff_t>(length);
    if (rows == 1 || (run.dst_row == packed && run.src_row == packed)) {
      std::memcpy(run.dst, run.src, rows * length * element_size);
      return;
    }
    for (size_t r = 0; r < rows; ++r) {
      const ptrdiff_t rr = static_cast<ptrdiff_t>(r) * static_cast<ptrdiff_t>(element_size);
      std::memcpy(run.dst + rr * run.dst_row, run.src + rr * run.src_row, length * element_size);
    }
    return;
  }
  if (element_size == 2) {
    CopyStridedRows<uint16_t>(run, rows, length);
  } else {
    CopyStridedRows<uint32_t>(run, rows, length);
  }
}

// Byte address of the element at `elements` (a signed element offset) from `base`.
inline unsigned char *ElementAt(void *base, ptrdiff_t elements, size_t element_size) {
  return static_cast<unsigned char *>(base) + elements * static_cast<ptrdiff_t>(element_size);
}
inline const unsigned char *ElementAt(const void *base, ptrdiff_t elements, size_t element_size) {
  return static_cast<const unsigned char *>(base) + elements * static_cast<ptrdiff_t>(element_size);
}

// The cache dtypes: F16, BF16 and F32 (InfiniCore's list), copied as 2- or 4-byte words.
inline bool IsCacheDtype(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 || dtype == INFINI_DTYPE_F32;
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_CACHE_ROWS_H
