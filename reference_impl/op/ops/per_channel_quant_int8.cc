// PerChannelQuantI8: each row m of x [M, K] quantised to int8 with its own scale x_scale[m, 0]
// (and, when x_zero is given, its zero point x_zero[m, 0]), in the F32 steps of
// core/int8_steps.h (spec section OP-INT8). Rows run in parallel, each in two passes: its
// extremes, then its values; contiguous rows take the vector kernels of core/simd_int8.h (F16 and
// BF16 widened first).
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "core/int8_steps.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "core/simd_int8.h"
#include "infiniop.h"
#include "ops/widened_run.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/int8_quant.h"
#endif

namespace infinicts::ref::op {
namespace {

struct PerChannelPlan {
  infiniDtype_t dtype;
  size_t rows = 0, cols = 0;
  ptrdiff_t x_row = 0, x_col = 0, packed_row = 0, packed_col = 0, scale_step = 0, zero_step = 0;
  bool asymmetric = false;
};

infiniStatus_t MakePlan(const TensorLayout &packed, const TensorLayout &scale, const TensorLayout *zero,
                        const TensorLayout &x, PerChannelPlan *plan) {
  const bool float_input = x.dtype == INFINI_DTYPE_F16 || x.dtype == INFINI_DTYPE_BF16 || x.dtype == INFINI_DTYPE_F32;
  if (!float_input || packed.dtype != INFINI_DTYPE_I8 || scale.dtype != INFINI_DTYPE_F32 ||
      (zero != nullptr && zero->dtype != INFINI_DTYPE_F32)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (x.ndim() != 2 || !SameShape(packed, x) || scale.ndim() != 2 || scale.shape[0] != x.shape[0] ||
      scale.shape[1] != 1 || (zero != nullptr && !SameShape(*zero, scale))) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(packed) || OverlapsItself(scale) || (zero != nullptr && OverlapsItself(*zero))) {
    return INFINI_STATUS_BAD_TENSOR_STRIDES;
  }
  plan->dtype = x.dtype;
  plan->rows = x.shape[0];
  plan->cols = x.shape[1];
  plan->x_row = x.strides[0];
  plan->x_col = x.strides[1];
  plan->packed_row = packed.strides[0];
  plan->packed_col = packed.strides[1];
  plan->scale_step = scale.strides[0];
  plan->zero_step = zero != nullptr ? zero->strides[0] : 0;
  plan->asymmetric = zero != nullptr;
  return INFINI_STATUS_SUCCESS;
}

// The row's extremes: max |x| (symmetric) or its maximum and minimum.
template <class T>
void RowExtremes(const T *in, ptrdiff_t step, size_t cols, bool asymmetric, float *hi, float *lo) {
  auto load = [&](size_t k) { return static_cast<float>(Num<T>::Load(in[static_cast<ptrdiff_t>(k) * step])); };
  float top = asymmetric ? load(0) : 0.0f, bottom = load(0);
  for (size_t k = 0; k < cols; ++k) {
    const float v = asymmetric ? load(k) : std::fabs(load(k));
    top = v > top ? v : top;
    bottom = v < bottom ? v : bottom;
  }
  *hi = top;
  *lo = bottom;
}

template <class T>
void QuantizeRow(const PerChannelPlan &plan, const T *in, int8_t *out, float *scale, float *zero) {
  const size_t cols = plan.cols;
  const ptrdiff_t in_step = plan.x_col, out_step = plan.packed_col;
  float hi = 0.0f, lo = 0.0f;
  const bool vector = in_step == 1 && simd::Enabled();
  const float *row = vector ? WidenedRun(in, cols) : nullptr;
  if (vector) {
    if (plan.asymmetric) {
      simd::MinMax(row, cols, &lo, &hi);
    } else {
      hi = simd::AbsMax(row, cols);
    }
  } else {
    RowExtremes(in, in_step, cols, plan.asymmetric, &hi, &lo);
  }
  float s, inv, z = 0.0f, bottom = -127.0f;
  if (!plan.asymmetric) {
    s = SymmetricScale(hi, kInt8ScaleFloor);
    inv = 1.0f / s;
  } else {
    s = AsymmetricScale(hi, lo);
    inv = 1.0f / s;
    z = AsymmetricZero(lo, inv);
    bottom = -128.0f;
    *zero = z;
  }
  *scale = s;
  if (vector && out_step == 1) {
    simd::QuantizeI8(row, cols, inv, z, bottom, 127.0f, out);
    return;
  }
  for (size_t k = 0; k < cols; ++k) {
    const ptrdiff_t kk = static_cast<ptrdiff_t>(k);
    out[kk * out_step] = SaturateToI8(static_cast<float>(Num<T>::Load(in[kk * in_step])) * inv + z, bottom, 127.0f);
  }
}

template <class T>
void RunTyped(const PerChannelPlan &plan, int8_t *packed, float *scale, float *zero, const T *x) {
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / std::max<size_t>(plan.cols, 1));
  ParallelFor(plan.rows, grain, [&](size_t begin, size_t end) {
    for (size_t m = begin; m < end; ++m) {
      const ptrdiff_t row = static_cast<ptrdiff_t>(m);
      QuantizeRow(plan, x + row * plan.x_row, packed + row * plan.packed_row, scale + row * plan.scale_step,
                  plan.asymmetric ? zero + row * plan.zero_step : nullptr);
    }
  });
}

class PerChannelQuantI8Descriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPerChannelQuantI8;

  PerChannelQuantI8Descriptor(const InfiniopHandle &handle, std::shared_ptr<const PerChannelPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *x_packed, void *x_scale, void *x_zero,
                         const void *x, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t count = plan_->rows * plan_->cols;
    INFINIOP_RETURN_IF_ERROR(CheckData({{x_packed, count}, {x_scale, plan_->rows}, {x, count}}));
    if (plan_->asymmetric) INFINIOP_RETURN_IF_ERROR(CheckData({{x_zero, plan_->rows}}));
    std::shared_ptr<const PerChannelPlan> plan = plan_;
    auto *packed = static_cast<int8_t *>(x_packed);
    auto *scale = static_cast<float *>(x_scale);
    auto *zero = plan->asymmetric ? static_cast<float *>(x_zero) : nullptr;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const cuda::PerRowQuantGeometry g{static_cast<int64_t>(plan->rows), static_cast<int64_t>(plan->cols),
                                        plan->x_row, plan->x_col, plan->packed_row, plan->packed_col,
                                        plan->scale_step, plan->zero_step};
      return cuda::PerChannelQuantI8(*this, plan->dtype, g, packed, scale, zero, x, stream);
    }
#endif
    return Launch(*this, stream, [plan, packed, scale, zero, x] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunTyped(*plan, packed, scale, zero, static_cast<const T *>(x));
      });
    });
  }

 private:
  std::shared_ptr<const PerChannelPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(PerChannelQuantI8)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePerChannelQuantI8Descriptor(infiniopHandle_t handle,
                                                                    infiniopPerChannelQuantI8Descriptor_t *desc_ptr,
                                                                    infiniopTensorDescriptor_t x_packed_desc,
                                                                    infiniopTensorDescriptor_t x_scale_desc,
                                                                    infiniopTensorDescriptor_t x_zero_desc,
                                                                    infiniopTensorDescriptor_t x_desc) {
  return CreateDescriptor(handle, desc_ptr, {x_packed_desc, x_scale_desc, x_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<PerChannelPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*x_packed_desc, *x_scale_desc, x_zero_desc, *x_desc, plan.get()));
                            made->reset(new PerChannelQuantI8Descriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetPerChannelQuantI8WorkspaceSize(infiniopPerChannelQuantI8Descriptor_t desc,
                                                                    size_t *size) {
  return GetWorkspaceSize<PerChannelQuantI8Descriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPerChannelQuantI8(infiniopPerChannelQuantI8Descriptor_t desc, void *workspace,
                                                    size_t workspace_size, void *x_packed, void *x_scale,
                                                    void *x_zero, const void *x, void *stream) {
  PerChannelQuantI8Descriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, x_packed, x_scale, x_zero, x, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPerChannelQuantI8Descriptor(infiniopPerChannelQuantI8Descriptor_t desc) {
  return DestroyDescriptor<PerChannelQuantI8Descriptor>(desc);
}
