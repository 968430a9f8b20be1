// The tensor descriptor (dtype, shape, strides in elements) and the layout facts the
// operators check: element count, same shape, and whether a layout overlaps itself.
#ifndef INFINICTS_REF_OP_CORE_TENSOR_H
#define INFINICTS_REF_OP_CORE_TENSOR_H

#include <cstddef>
#include <vector>

#include "infiniop/tensor_descriptor.h"

struct InfiniopTensorDescriptor {
  infiniDtype_t dtype;
  std::vector<size_t> shape;
  std::vector<ptrdiff_t> strides;

  size_t ndim() const { return shape.size(); }
};

namespace infinicts::ref::op {

// Operators copy the descriptors they were built from, so callers may destroy them.
using TensorLayout = InfiniopTensorDescriptor;

// The most dims a tensor descriptor may have.
constexpr size_t kMaxTensorDims = 32;

size_t Numel(const TensorLayout &layout);
bool SameShape(const TensorLayout &a, const TensorLayout &b);
// Whether two distinct indices of the layout may address the same element. Decided by
// a sufficient test: sorted by |stride|, each dim of size > 1 must step past the whole
// extent of the dims below it; a few exotic non-overlapping layouts are refused too.
bool OverlapsItself(const TensorLayout &layout);
// Row-major without padding: each dim of size > 1 strides over exactly the dims after it (a
// dim of size 1 may carry any stride).
bool IsRowMajor(const TensorLayout &layout);
// The layout without dim `axis`.
TensorLayout WithoutDim(const TensorLayout &layout, size_t axis);

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_TENSOR_H
