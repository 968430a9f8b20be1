// Element-by-element copy of one strided walk into another, for the operators that only move
// elements (Rearrange, BroadcastTo). Elements are copied as bytes, so every dtype is served.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/simd.h"
#include "core/strided_loop.h"

namespace infinicts::ref::op {

namespace strided_copy_detail {

template <size_t Bytes>
struct Element {
  unsigned char bytes[Bytes];
};

// Whether two byte ranges of `bytes` overlap.
inline bool Overlaps(const void *a, const void *b, size_t bytes) {
  const uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + bytes && y < x + bytes;
}

template <size_t Bytes>
void Copy(const StridedLoop<2> &loop, void *dst, const void *src) {
  using E = Element<Bytes>;
  // A large output's contiguous runs leave through streaming stores, as the elementwise
  // operators' do: memmove streams only above the C library's own threshold (glibc: 3/4 of
  // the shared cache), far above the chunks the pool hands it, and below it pays a read for
  // ownership of every dst line (bench/README.md, "Kernel choices").
  const bool streaming = simd::Enabled() && loop.numel() * Bytes >= simd::kStreamingOutputBytes;
  loop.ParallelForEachTiled(size_t(1) << 15, [&](const Offsets<2> &offsets, const Offsets<2> &steps, size_t count) {
    E *out = static_cast<E *>(dst) + offsets[0];
    const E *in = static_cast<const E *>(src) + offsets[1];
    if (steps[0] == 1 && steps[1] == 1) {
      if (streaming && !Overlaps(out, in, count * Bytes)) {
        simd::CopyStreaming(in, out, count * Bytes);
        simd::StoreFence();
      } else {
        std::memmove(out, in, count * Bytes);
      }
    } else if (steps[1] == 0) {  // a broadcast source: one element repeated along the run
      const E value = *in;
      for (size_t i = 0; i < count; ++i) out[static_cast<ptrdiff_t>(i) * steps[0]] = value;
    } else {
      for (size_t i = 0; i < count; ++i) {
        const ptrdiff_t j = static_cast<ptrdiff_t>(i);
        out[j * steps[0]] = in[j * steps[1]];
      }
    }
  });
}

}  // namespace strided_copy_detail

// dst = src along `loop` (operand 0: dst, operand 1: src; strides in elements, a source
// stride 0 where it is broadcast) for elements of `element_size` bytes (1, 2, 4, 8 or 16).
inline void CopyStrided(const StridedLoop<2> &loop, size_t element_size, void *dst, const void *src) {
  using strided_copy_detail::Copy;
  switch (element_size) {
    case 1: Copy<1>(loop, dst, src); break;
    case 2: Copy<2>(loop, dst, src); break;
    case 4: Copy<4>(loop, dst, src); break;
    case 8: Copy<8>(loop, dst, src); break;
    default: Copy<16>(loop, dst, src); break;
  }
}

}  // namespace infinicts::ref::op
