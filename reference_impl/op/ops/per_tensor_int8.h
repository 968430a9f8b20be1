// What PerTensorQuantI8 and PerTensorDequantI8 share (spec section OP-INT8): x and x_packed of
// one shape and any strides, walked together; x_scale of one element; no zero point (a present
// x_zero is refused with BAD_PARAM); the checks of both create calls.
#ifndef INFINICTS_REF_OP_OPS_PER_TENSOR_INT8_H
#define INFINICTS_REF_OP_OPS_PER_TENSOR_INT8_H

#include "core/strided_loop.h"
#include "core/tensor.h"
#include "infinicore.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/int8_quant.h"
#endif

namespace infinicts::ref::op {

// The most dims the per-tensor operators take (the spec asks for 4).
constexpr size_t kMaxPerTensorDims = 8;

struct PerTensorPlan {
  infiniDtype_t dtype;     // x's
  StridedLoop<2> walk;     // operand 0: x, operand 1: x_packed
  TensorLayout x, packed;  // for the CUDA geometry
};

// `written`: x_packed for the quantiser, x for the dequantiser (it must not overlap itself).
inline infiniStatus_t MakePerTensorPlan(const TensorLayout &x, const TensorLayout &packed, const TensorLayout &scale,
                                        const TensorLayout *zero, const TensorLayout &written, PerTensorPlan *plan) {
  // Only the symmetric form is defined (OP-INT8): a zero point has nothing to mean here.
  if (zero != nullptr) return INFINI_STATUS_BAD_PARAM;
  const bool float_x = x.dtype == INFINI_DTYPE_F16 || x.dtype == INFINI_DTYPE_BF16 || x.dtype == INFINI_DTYPE_F32;
  if (!float_x || packed.dtype != INFINI_DTYPE_I8 || scale.dtype != INFINI_DTYPE_F32) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (x.ndim() < 1 || x.ndim() > kMaxPerTensorDims || !SameShape(x, packed) || Numel(scale) != 1) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(written)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = x.dtype;
  plan->walk = StridedLoop<2>(x.shape, {&x.strides, &packed.strides});
  plan->x = x;
  plan->packed = packed;
  return INFINI_STATUS_SUCCESS;
}

#ifdef INFINIOP_WITH_CUDA
static_assert(kMaxPerTensorDims <= static_cast<size_t>(cuda::kMaxQuantDims), "the CUDA geometry holds every dim");
inline cuda::PerTensorGeometry PerTensorGeometryOf(const PerTensorPlan &plan) {
  cuda::PerTensorGeometry g{};
  g.ndim = static_cast<int32_t>(plan.x.ndim());
  g.count = static_cast<int64_t>(Numel(plan.x));
  for (size_t d = 0; d < plan.x.ndim(); ++d) {
    g.shape[d] = static_cast<int64_t>(plan.x.shape[d]);
    g.x_strides[d] = plan.x.strides[d];
    g.packed_strides[d] = plan.packed.strides[d];
  }
  return g;
}
#endif

// Elements per chunk of the parallel walk.
constexpr size_t kPerTensorGrain = size_t(1) << 15;

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_PER_TENSOR_INT8_H
