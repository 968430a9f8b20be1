// BroadcastTo: y = x broadcast by numpy's rules (spec section OP-BROADCASTTO): x's dims line up
// with y's last ones, and a dim of 1 (or one x lacks) is read with stride 0, whatever stride x's
// descriptor gives it.
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/strided_copy.h"
#include "core/strided_loop.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rearrange.h"
#endif

namespace infinicts::ref::op {
namespace {

constexpr size_t kMaxDims = 8;  // OP-BROADCASTTO: more MAY be refused

struct BroadcastToPlan {
  size_t element_size = 0;
  StridedLoop<2> loop;  // over y's shape; operand 0: y, operand 1: x (stride 0 where broadcast)
  size_t x_count = 0;
#ifdef INFINIOP_WITH_CUDA
  cuda::StridedOperands<2> device_layout;
#endif
};

infiniStatus_t MakePlan(const TensorLayout &y, const TensorLayout &x, BroadcastToPlan *plan) {
  if (y.dtype != x.dtype || DtypeSize(y.dtype) == 0) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (x.ndim() > y.ndim()) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (y.ndim() > kMaxDims) return INFINI_STATUS_BAD_PARAM;
  const size_t lead = y.ndim() - x.ndim();
  std::vector<ptrdiff_t> x_strides(y.ndim(), 0);  // x's strides over y's dims
  for (size_t d = 0; d < x.ndim(); ++d) {
    if (x.shape[d] != 1 && x.shape[d] != y.shape[lead + d]) return INFINI_STATUS_BAD_TENSOR_SHAPE;
    if (x.shape[d] != 1) x_strides[lead + d] = x.strides[d];
  }
  if (OverlapsItself(y)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->element_size = DtypeSize(y.dtype);
  plan->loop = StridedLoop<2>(y.shape, {&y.strides, &x_strides});
  plan->x_count = Numel(x);
#ifdef INFINIOP_WITH_CUDA
  plan->device_layout = cuda::MergeOperands<2>(y.shape, {&y.strides, &x_strides});
#endif
  return INFINI_STATUS_SUCCESS;
}

class BroadcastToDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kBroadcastTo;

  BroadcastToDescriptor(const InfiniopHandle &handle, std::shared_ptr<const BroadcastToPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *y, const void *x, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t count = plan_->loop.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData({{y, count}, {x, count > 0 ? plan_->x_count : 0}}));
    std::shared_ptr<const BroadcastToPlan> plan = plan_;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::Rearrange(*this, plan->element_size, plan->device_layout, y, x, stream);
    }
#endif
    return Launch(*this, stream, [plan, y, x] { CopyStrided(plan->loop, plan->element_size, y, x); });
  }

 private:
  std::shared_ptr<const BroadcastToPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(BroadcastTo)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateBroadcastToDescriptor(infiniopHandle_t handle,
                                                              infiniopBroadcastToDescriptor_t *desc_ptr,
                                                              infiniopTensorDescriptor_t y,
                                                              infiniopTensorDescriptor_t x) {
  return CreateDescriptor(handle, desc_ptr, {y, x}, [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
    auto plan = std::make_shared<BroadcastToPlan>();
    INFINIOP_RETURN_IF_ERROR(MakePlan(*y, *x, plan.get()));
    made->reset(new BroadcastToDescriptor(h, std::move(plan)));
    return INFINI_STATUS_SUCCESS;
  });
}

__INFINI_C infiniStatus_t infiniopGetBroadcastToWorkspaceSize(infiniopBroadcastToDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<BroadcastToDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopBroadcastTo(infiniopBroadcastToDescriptor_t desc, void *workspace,
                                              size_t workspace_size, void *y, const void *x, void *stream) {
  BroadcastToDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, y, x, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyBroadcastToDescriptor(infiniopBroadcastToDescriptor_t desc) {
  return DestroyDescriptor<BroadcastToDescriptor>(desc);
}
