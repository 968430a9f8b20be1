#include "common/api_objects.h"

namespace infinicts::op_cases {

infiniStatus_t ScopedHandle::Create() {
  Destroy();
  return cts::op().infiniopCreateHandle(&handle_);
}

infiniStatus_t ScopedHandle::Destroy() {
  if (handle_ == nullptr) return INFINI_STATUS_SUCCESS;
  const infiniStatus_t status = cts::op().infiniopDestroyHandle(handle_);
  handle_ = nullptr;
  return status;
}

infiniStatus_t ScopedTensorDescriptors::Create(const std::vector<TensorSpec> &specs) {
  Destroy();
  for (const TensorSpec &spec : specs) {
    if (!spec.described) continue;
    descriptors_.push_back(nullptr);
    if (!spec.present) continue;
    const Layout &layout = spec.layout;
    const infiniStatus_t status = cts::op().infiniopCreateTensorDescriptor(
        &descriptors_.back(), layout.shape.size(), layout.shape.data(), layout.strides.data(), spec.dtype);
    if (status != INFINI_STATUS_SUCCESS) {
      descriptors_.back() = nullptr;
      return status;
    }
  }
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t ScopedTensorDescriptors::Destroy() {
  infiniStatus_t first = INFINI_STATUS_SUCCESS;
  for (infiniopTensorDescriptor_t &desc : descriptors_) {
    if (desc == nullptr) continue;
    const infiniStatus_t status = cts::op().infiniopDestroyTensorDescriptor(desc);
    if (first == INFINI_STATUS_SUCCESS) first = status;
    desc = nullptr;
  }
  descriptors_.clear();
  return first;
}

infiniStatus_t ScopedOpDescriptor::Destroy() {
  if (desc_ == nullptr) return INFINI_STATUS_SUCCESS;
  const infiniStatus_t status = destroy_(desc_);
  desc_ = nullptr;
  return status;
}

}  // namespace infinicts::op_cases
