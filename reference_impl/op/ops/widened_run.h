// A contiguous run of F16, BF16 or F32 values as F32, for the F32 vector kernels: F32 as it
// is, the others widened (exactly) into the calling thread's scratch, valid until its next call.
#ifndef INFINICTS_REF_OP_OPS_WIDENED_RUN_H
#define INFINICTS_REF_OP_OPS_WIDENED_RUN_H

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/dtype.h"
#include "core/simd.h"

namespace infinicts::ref::op {

template <class T>
const float *WidenedRun(const T *in, size_t n) {
  if constexpr (std::is_same_v<T, float>) {
    return in;
  } else {
    thread_local std::vector<float> scratch;
    if (scratch.size() < n) scratch.resize(n);
    if constexpr (std::is_same_v<T, f16_t>) {
      simd::F16ToF32(reinterpret_cast<const uint16_t *>(in), scratch.data(), n);
    } else {
      for (size_t i = 0; i < n; ++i) scratch[i] = static_cast<float>(Num<T>::Load(in[i]));
    }
    return scratch.data();
  }
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_WIDENED_RUN_H
