// Owners of the InfiniOP objects a case makes (handle, tensor descriptors, operator
// descriptor), so an assertion that ends a case early still destroys them.
#pragma once

#include <functional>
#include <vector>

#include "common/op_case.h"

namespace infinicts::op_cases {

class ScopedHandle {
 public:
  ScopedHandle() = default;
  ~ScopedHandle() { Destroy(); }
  ScopedHandle(const ScopedHandle &) = delete;
  ScopedHandle &operator=(const ScopedHandle &) = delete;

  // infiniopCreateHandle on the calling thread's current device.
  infiniStatus_t Create();
  infiniStatus_t Destroy();  // SUCCESS when there is none
  infiniopHandle_t get() const { return handle_; }

 private:
  infiniopHandle_t handle_ = nullptr;
};

class ScopedTensorDescriptors {
 public:
  ScopedTensorDescriptors() = default;
  ~ScopedTensorDescriptors() { Destroy(); }
  ScopedTensorDescriptors(const ScopedTensorDescriptors &) = delete;
  ScopedTensorDescriptors &operator=(const ScopedTensorDescriptors &) = delete;

  // One descriptor per described spec, in order (absent ones stay NULL): the create call's
  // tensors. The first failing status, if any.
  infiniStatus_t Create(const std::vector<TensorSpec> &specs);
  infiniStatus_t Destroy();  // the first failing status, if any
  const TensorDescriptors &get() const { return descriptors_; }

 private:
  TensorDescriptors descriptors_;
};

class ScopedOpDescriptor {
 public:
  explicit ScopedOpDescriptor(std::function<infiniStatus_t(OpDescriptor)> destroy) : destroy_(std::move(destroy)) {}
  ~ScopedOpDescriptor() { Destroy(); }
  ScopedOpDescriptor(const ScopedOpDescriptor &) = delete;
  ScopedOpDescriptor &operator=(const ScopedOpDescriptor &) = delete;

  OpDescriptor *out() { return &desc_; }  // for the create call
  OpDescriptor get() const { return desc_; }
  infiniStatus_t Destroy();  // SUCCESS when there is none

 private:
  std::function<infiniStatus_t(OpDescriptor)> destroy_;
  OpDescriptor desc_ = nullptr;
};

}  // namespace infinicts::op_cases
