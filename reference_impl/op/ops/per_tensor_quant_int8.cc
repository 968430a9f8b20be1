// PerTensorQuantI8: x quantised to int8 with one scale, x_scale[0]: given (is_static) or
// found as max|x| / 127 (dynamic), in the F32 steps of core/int8_steps.h (spec section
// OP-INT8). The dynamic maximum is a parallel reduction over chunks; then every element is
// quantised in parallel; contiguous runs take the vector kernels of core/simd_int8.h (F16 and
// BF16 widened first). x_scale's prior content is never read in the dynamic form.
#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>

#include "core/api.h"
#include "core/dtype.h"
#include "core/int8_steps.h"
#include "core/simd.h"
#include "core/simd_int8.h"
#include "infiniop.h"
#include "ops/per_tensor_int8.h"
#include "ops/widened_run.h"

namespace infinicts::ref::op {
namespace {

template <class T>
float MaxAbs(const PerTensorPlan &plan, const T *x) {
  std::mutex mutex;
  float result = 0.0f;
  plan.walk.ParallelForEach(kPerTensorGrain, [&](size_t, const Offsets<2> &at, const Offsets<2> &step, size_t count) {
    float local = 0.0f;
    const T *in = x + at[0];
    if (step[0] == 1 && simd::Enabled()) {
      local = simd::AbsMax(WidenedRun(in, count), count);
    } else {
      for (size_t i = 0; i < count; ++i) {
        const float v = std::fabs(static_cast<float>(Num<T>::Load(in[static_cast<ptrdiff_t>(i) * step[0]])));
        local = v > local ? v : local;
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    result = std::max(result, local);
  });
  return result;
}

template <class T>
void RunTyped(const PerTensorPlan &plan, int8_t *packed, float *scale, const T *x, bool is_static) {
  if (!is_static) *scale = SymmetricScale(MaxAbs(plan, x), 0.0f);
  const float inv = 1.0f / *scale;
  plan.walk.ParallelForEach(kPerTensorGrain, [&](size_t, const Offsets<2> &at, const Offsets<2> &step, size_t count) {
    const T *in = x + at[0];
    int8_t *out = packed + at[1];
    if (step[0] == 1 && step[1] == 1 && simd::Enabled()) {
      simd::QuantizeI8(WidenedRun(in, count), count, inv, 0.0f, -127.0f, 127.0f, out);
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      const ptrdiff_t ii = static_cast<ptrdiff_t>(i);
      out[ii * step[1]] = SaturateToI8(static_cast<float>(Num<T>::Load(in[ii * step[0]])) * inv, -127.0f, 127.0f);
    }
  });
}

class PerTensorQuantI8Descriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPerTensorQuantI8;

  PerTensorQuantI8Descriptor(const InfiniopHandle &handle, std::shared_ptr<const PerTensorPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {
    // The dynamic form's maximum, on NVIDIA, goes through one float of workspace.
    if (device_type == INFINI_DEVICE_NVIDIA) workspace_size = WorkspaceWithSlack(sizeof(float));
  }

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *x_packed, void *x_scale, const void *x,
                         bool is_static, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t count = plan_->walk.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData({{x_packed, count}, {x_scale, 1}, {x, count}}));
    std::shared_ptr<const PerTensorPlan> plan = plan_;
    auto *packed = static_cast<int8_t *>(x_packed);
    auto *scale = static_cast<float *>(x_scale);
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::PerTensorQuantI8(*this, plan->dtype, PerTensorGeometryOf(*plan), packed, scale, x, is_static,
                                    static_cast<float *>(AlignWorkspace(workspace)), stream);
    }
#endif
    return Launch(*this, stream, [plan, packed, scale, x, is_static] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunTyped(*plan, packed, scale, static_cast<const T *>(x), is_static);
      });
    });
  }

 private:
  std::shared_ptr<const PerTensorPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(PerTensorQuantI8)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePerTensorQuantI8Descriptor(infiniopHandle_t handle,
                                                                   infiniopPerTensorQuantI8Descriptor_t *desc_ptr,
                                                                   infiniopTensorDescriptor_t x_packed_desc,
                                                                   infiniopTensorDescriptor_t x_scale_desc,
                                                                   infiniopTensorDescriptor_t x_zero_desc,
                                                                   infiniopTensorDescriptor_t x_desc) {
  return CreateDescriptor(handle, desc_ptr, {x_packed_desc, x_scale_desc, x_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<PerTensorPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePerTensorPlan(*x_desc, *x_packed_desc, *x_scale_desc,
                                                                       x_zero_desc, *x_packed_desc, plan.get()));
                            made->reset(new PerTensorQuantI8Descriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetPerTensorQuantI8WorkspaceSize(infiniopPerTensorQuantI8Descriptor_t desc,
                                                                   size_t *size) {
  return GetWorkspaceSize<PerTensorQuantI8Descriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPerTensorQuantI8(infiniopPerTensorQuantI8Descriptor_t desc, void *workspace,
                                                   size_t workspace_size, void *x_packed, void *x_scale, void *x_zero,
                                                   const void *x, const bool is_static, void *stream) {
  PerTensorQuantI8Descriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  (void)x_zero;  // its descriptor was refused at create (ops/per_tensor_int8.h)
  return self->Compute(workspace, workspace_size, x_packed, x_scale, x, is_static, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPerTensorQuantI8Descriptor(infiniopPerTensorQuantI8Descriptor_t desc) {
  return DestroyDescriptor<PerTensorQuantI8Descriptor>(desc);
}
