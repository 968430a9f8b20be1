// What the operator faults know of tensor descriptors: the wrapper sees every
// infiniopCreateTensorDescriptor call, so it keeps each live descriptor's dtype, shape and
// strides (the faults copy what they need when an operator descriptor is made, since the
// tensor descriptors may be destroyed right after).
#pragma once

#include <optional>

#include "op/op_table.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {

// Replaces the tensor descriptor calls in `calls` by ones that record what they create.
void TrackTensorLayouts(OpTable &calls);

// The layout of a live descriptor made through the tracking calls; none for others.
std::optional<TensorLayout> LayoutOf(infiniopTensorDescriptor_t desc);

// A descriptor of the target library with a layout of the fault's choosing, destroyed
// with this object (an operator descriptor keeps what it needs of it, OP-DESC-8).
class TargetTensorDescriptor {
 public:
  explicit TargetTensorDescriptor(const TensorLayout &layout);
  ~TargetTensorDescriptor();
  TargetTensorDescriptor(const TargetTensorDescriptor &) = delete;
  TargetTensorDescriptor &operator=(const TargetTensorDescriptor &) = delete;
  infiniopTensorDescriptor_t get() const { return desc_; }

 private:
  infiniopTensorDescriptor_t desc_ = nullptr;
};

}  // namespace infinicts::fault
