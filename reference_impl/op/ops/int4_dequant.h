// What DequantizeAWQ and DequantizeGPTQ share (spec section OP-INT4): their create checks
// (dtypes, contiguous tensors), the plan both kernels run and their portable element.
#ifndef INFINICTS_REF_OP_OPS_INT4_DEQUANT_H
#define INFINICTS_REF_OP_OPS_INT4_DEQUANT_H

#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "core/dtype.h"
#include "core/int4_words.h"
#include "core/tensor.h"
#include "infinicore.h"

namespace infinicts::ref::op {

// Rows per chunk of the parallel walk.
constexpr size_t kInt4RowGrain = 4;

struct Int4DequantPlan {
  infiniDtype_t dtype;  // out's and scales'
  Int4Geometry g;
};

// out and scales F16 or BF16 alike, the words (and g_idx) I32.
inline infiniStatus_t CheckInt4Dtypes(const TensorLayout &out, const TensorLayout &scales,
                                      std::initializer_list<const TensorLayout *> words) {
  if ((out.dtype != INFINI_DTYPE_F16 && out.dtype != INFINI_DTYPE_BF16) || scales.dtype != out.dtype) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  for (const TensorLayout *w : words) {
    if (w->dtype != INFINI_DTYPE_I32) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  return INFINI_STATUS_SUCCESS;
}

// The kernels index every operand contiguously (OP-INT4 lets other layouts be refused).
inline infiniStatus_t CheckInt4Layouts(std::initializer_list<const TensorLayout *> tensors) {
  for (const TensorLayout *t : tensors) {
    if (!IsRowMajor(*t)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  }
  return INFINI_STATUS_SUCCESS;
}

// The portable path's element: (q − z')·scale rounded once into T (the difference exact, the
// product exact in F32), read through core/int4_words.h as the CUDA kernels read it. Where
// simd::Enabled(), core/simd_int4.h's rows run instead.
template <class T>
T ScaledElement(const Int4Element &element, const T *scales) {
  return Num<T>::Store(static_cast<float>(element.difference) * Num<T>::Load(scales[element.scale_index]));
}

template <class T>
constexpr bool kIsBf16 = std::is_same_v<T, bf16_t>;

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_INT4_DEQUANT_H
