#include "op/layout_tracking.h"

#include <mutex>
#include <unordered_map>

#include "common/fault_env.h"

namespace infinicts::fault {
namespace {

std::mutex layouts_mutex;
std::unordered_map<infiniopTensorDescriptor_t, TensorLayout> layouts;

infiniStatus_t CreateRecorded(infiniopTensorDescriptor_t *desc_ptr, size_t ndim, const size_t *shape,
                              const ptrdiff_t *strides, infiniDtype_t dtype) {
  const infiniStatus_t status = TargetOp().infiniopCreateTensorDescriptor(desc_ptr, ndim, shape, strides, dtype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  TensorLayout layout;
  layout.dtype = dtype;
  if (ndim > 0) layout.shape.assign(shape, shape + ndim);
  layout.strides = strides != nullptr && ndim > 0 ? std::vector<ptrdiff_t>(strides, strides + ndim)
                                                  : ContiguousStrides(layout.shape);
  std::lock_guard<std::mutex> lock(layouts_mutex);
  layouts[*desc_ptr] = std::move(layout);
  return status;
}

infiniStatus_t DestroyRecorded(infiniopTensorDescriptor_t desc) {
  const infiniStatus_t status = TargetOp().infiniopDestroyTensorDescriptor(desc);
  if (status == INFINI_STATUS_SUCCESS) {
    std::lock_guard<std::mutex> lock(layouts_mutex);
    layouts.erase(desc);
  }
  return status;
}

}  // namespace

void TrackTensorLayouts(OpTable &calls) {
  calls.infiniopCreateTensorDescriptor = &CreateRecorded;
  calls.infiniopDestroyTensorDescriptor = &DestroyRecorded;
}

std::optional<TensorLayout> LayoutOf(infiniopTensorDescriptor_t desc) {
  std::lock_guard<std::mutex> lock(layouts_mutex);
  const auto found = layouts.find(desc);
  if (found == layouts.end()) return std::nullopt;
  return found->second;
}

TargetTensorDescriptor::TargetTensorDescriptor(const TensorLayout &layout) {
  const infiniStatus_t status = TargetOp().infiniopCreateTensorDescriptor(
      &desc_, layout.shape.size(), layout.shape.data(), layout.strides.data(), layout.dtype);
  if (status != INFINI_STATUS_SUCCESS) Die("the target refused a tensor descriptor the fault made");
}

TargetTensorDescriptor::~TargetTensorDescriptor() { TargetOp().infiniopDestroyTensorDescriptor(desc_); }

}  // namespace infinicts::fault
