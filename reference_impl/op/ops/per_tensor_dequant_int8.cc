// PerTensorDequantI8: x = x_packed · x_scale[0], the product in F32 and then stored in x's
// dtype (spec section OP-INT8); x and x_packed of any strides, walked together in parallel,
// contiguous F32 and F16 runs through the vector kernel of core/simd.h (ScaleInto).
#include <memory>
#include <type_traits>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "infiniop.h"
#include "ops/per_tensor_int8.h"

namespace infinicts::ref::op {
namespace {

template <class T>
void RunTyped(const PerTensorPlan &plan, T *x, const int8_t *packed, const float *scale) {
  const float s = *scale;
  plan.walk.ParallelForEach(kPerTensorGrain, [&](size_t, const Offsets<2> &at, const Offsets<2> &step, size_t count) {
    T *out = x + at[0];
    const int8_t *in = packed + at[1];
    constexpr bool kVectorOut = std::is_same_v<T, float> || std::is_same_v<T, f16_t>;
    if (kVectorOut && step[0] == 1 && step[1] == 1 && simd::Enabled()) {
      // The int8 values as F32 (exact), then scaled and stored by the vector kernel.
      thread_local std::vector<float> values;
      if (values.size() < count) values.resize(count);
      for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(in[i]);
      if constexpr (std::is_same_v<T, float>) {
        simd::ScaleInto(values.data(), s, out, count, false);
      } else if constexpr (std::is_same_v<T, f16_t>) {
        simd::ScaleInto(values.data(), s, reinterpret_cast<uint16_t *>(out), count, false);
      }
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      const ptrdiff_t ii = static_cast<ptrdiff_t>(i);
      const float product = static_cast<float>(in[ii * step[1]]) * s;
      out[ii * step[0]] = Num<T>::Store(static_cast<ComputeOf<T>>(product));
    }
  });
}

class PerTensorDequantI8Descriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPerTensorDequantI8;

  PerTensorDequantI8Descriptor(const InfiniopHandle &handle, std::shared_ptr<const PerTensorPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *x, const void *x_packed,
                         const void *x_scale, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t count = plan_->walk.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData({{x, count}, {x_packed, count}, {x_scale, 1}}));
    std::shared_ptr<const PerTensorPlan> plan = plan_;
    auto *packed = static_cast<const int8_t *>(x_packed);
    auto *scale = static_cast<const float *>(x_scale);
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::PerTensorDequantI8(*this, plan->dtype, PerTensorGeometryOf(*plan), x, packed, scale, stream);
    }
#endif
    return Launch(*this, stream, [plan, x, packed, scale] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunTyped(*plan, static_cast<T *>(x), packed, scale);
      });
    });
  }

 private:
  std::shared_ptr<const PerTensorPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(PerTensorDequantI8)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePerTensorDequantI8Descriptor(infiniopHandle_t handle,
                                                                     infiniopPerTensorDequantI8Descriptor_t *desc_ptr,
                                                                     infiniopTensorDescriptor_t x_desc,
                                                                     infiniopTensorDescriptor_t x_packed_desc,
                                                                     infiniopTensorDescriptor_t x_scale_desc,
                                                                     infiniopTensorDescriptor_t x_zero_desc) {
  return CreateDescriptor(handle, desc_ptr, {x_desc, x_packed_desc, x_scale_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<PerTensorPlan>();
                            INFINIOP_RETURN_IF_ERROR(
                                MakePerTensorPlan(*x_desc, *x_packed_desc, *x_scale_desc, x_zero_desc, *x_desc, plan.get()));
                            made->reset(new PerTensorDequantI8Descriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetPerTensorDequantI8WorkspaceSize(infiniopPerTensorDequantI8Descriptor_t desc,
                                                                     size_t *size) {
  return GetWorkspaceSize<PerTensorDequantI8Descriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPerTensorDequantI8(infiniopPerTensorDequantI8Descriptor_t desc, void *workspace,
                                                     size_t workspace_size, void *x, const void *x_packed,
                                                     const void *x_scale, const void *x_zero, void *stream) {
  PerTensorDequantI8Descriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  (void)x_zero;  // its descriptor was refused at create (ops/per_tensor_int8.h)
  return self->Compute(workspace, workspace_size, x, x_packed, x_scale, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPerTensorDequantI8Descriptor(infiniopPerTensorDequantI8Descriptor_t desc) {
  return DestroyDescriptor<PerTensorDequantI8Descriptor>(desc);
}
