// SiluAndMul: output[..., j] = silu(input[..., j]) · input[..., d + j] over rows of the
// output's last dim d (the gate is the input's first half, the up projection its second).
// Contiguous F32 and F16 rows go through the SwiGLU vector kernel (c = a·silu(b), a the up
// half, b the gate half); the rest computes in double and rounds once. On NVIDIA the
// elementwise SwiGLU kernel runs over two views of the input (cuda/elementwise.h).
#include <cmath>
#include <memory>
#include <type_traits>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "infiniop.h"
#include "ops/rows.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/elementwise.h"
#include "rules/elementwise.h"
#endif

namespace infinicts::ref::op {
namespace {

struct SiluAndMulPlan {
  infiniDtype_t dtype;
  RowLoop<2> rows;  // operand 0: output, operand 1: input; rows of the output's length d
  size_t input_count = 0;
#ifdef INFINIOP_WITH_CUDA
  // SwiGLU's operands: the output, the up half, the gate half (both views of the input);
  // the up half starts up_offset elements into the input.
  cuda::StridedOperands<3> device_layout;
  ptrdiff_t up_offset = 0;
#endif
};

infiniStatus_t MakePlan(const TensorLayout &output, const TensorLayout &input, SiluAndMulPlan *plan) {
  if (!IsFloatDtype(output.dtype) || input.dtype != output.dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  const size_t ndim = output.ndim();
  if (ndim < 1 || input.ndim() != ndim || input.shape[ndim - 1] != 2 * output.shape[ndim - 1]) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  for (size_t i = 0; i + 1 < ndim; ++i) {
    if (input.shape[i] != output.shape[i]) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(output)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = output.dtype;
  plan->rows = MakeRowLoop<2>({&output, &input}, ndim - 1);
  plan->input_count = Numel(input);
#ifdef INFINIOP_WITH_CUDA
  plan->device_layout = cuda::MergeOperands<3>(output.shape, {&output.strides, &input.strides, &input.strides});
  plan->up_offset = static_cast<ptrdiff_t>(output.shape[ndim - 1]) * input.strides[ndim - 1];
#endif
  return INFINI_STATUS_SUCCESS;
}

template <class T>
void RunTyped(const SiluAndMulPlan &plan, T *output, const T *input) {
  const size_t d = plan.rows.length;
  const ptrdiff_t out_step = plan.rows.along[0], in_step = plan.rows.along[1];
  const ptrdiff_t up_from = static_cast<ptrdiff_t>(d) * in_step;
  const bool vector = out_step == 1 && in_step == 1 && simd::Enabled() &&
                      (std::is_same_v<T, float> || std::is_same_v<T, f16_t>);
  ForEachRow(plan.rows, [&](size_t, const Offsets<2> &offsets) {
    T *out = output + offsets[0];
    const T *gate = input + offsets[1];
    const T *up = gate + up_from;
    if (vector) {
      const void *operands[2] = {up, gate};
      simd::Map(simd::MapOp::kSwiGLU, std::is_same_v<T, f16_t>, operands, out, d, false);
      return;
    }
    for (size_t j = 0; j < d; ++j) {
      const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
      const double g = LoadDouble(gate[jj * in_step]);
      const double sigmoid = g >= 0 ? 1.0 / (1.0 + std::exp(-g)) : std::exp(g) / (1.0 + std::exp(g));
      out[jj * out_step] = StoreDouble<T>(g * sigmoid * LoadDouble(up[jj * in_step]));
    }
  });
}

class SiluAndMulDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kSiluAndMul;

  SiluAndMulDescriptor(const InfiniopHandle &handle, std::shared_ptr<const SiluAndMulPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *output, const void *input,
                         void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    INFINIOP_RETURN_IF_ERROR(
        CheckData({{output, plan_->rows.rows.numel() * plan_->rows.length}, {input, plan_->input_count}}));
    std::shared_ptr<const SiluAndMulPlan> plan = plan_;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      // Pointer arithmetic only: the data stays on the device.
      const void *up = static_cast<const char *>(input) + plan->up_offset * static_cast<ptrdiff_t>(DtypeSize(plan->dtype));
      const rules::SwiGLU swiglu;
      return cuda::Elementwise<2>(*this, OpKind::kSwiGLU, plan->dtype, plan->device_layout, output, {up, input},
                                  &swiglu, stream);
    }
#endif
    return Launch(*this, stream, [plan, output, input] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunTyped(*plan, static_cast<T *>(output), static_cast<const T *>(input));
      });
    });
  }

 private:
  std::shared_ptr<const SiluAndMulPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(SiluAndMul)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateSiluAndMulDescriptor(infiniopHandle_t handle,
                                                             infiniopSiluAndMulDescriptor_t *desc_ptr,
                                                             infiniopTensorDescriptor_t output,
                                                             infiniopTensorDescriptor_t input) {
  return CreateDescriptor(handle, desc_ptr, {output, input},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<SiluAndMulPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*output, *input, plan.get()));
                            made->reset(new SiluAndMulDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetSiluAndMulWorkspaceSize(infiniopSiluAndMulDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<SiluAndMulDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSiluAndMul(infiniopSiluAndMulDescriptor_t desc, void *workspace,
                                             size_t workspace_size, void *output, const void *input, void *stream) {
  SiluAndMulDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, output, input, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySiluAndMulDescriptor(infiniopSiluAndMulDescriptor_t desc) {
  return DestroyDescriptor<SiluAndMulDescriptor>(desc);
}
