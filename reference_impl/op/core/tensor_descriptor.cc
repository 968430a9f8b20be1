#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>

#include "core/dtype.h"
#include "core/tensor.h"

namespace infinicts::ref::op {

size_t Numel(const TensorLayout &layout) {
  size_t count = 1;
  for (size_t dim : layout.shape) count *= dim;
  return count;
}

bool SameShape(const TensorLayout &a, const TensorLayout &b) { return a.shape == b.shape; }

bool IsRowMajor(const TensorLayout &layout) {
  ptrdiff_t expected = 1;
  for (size_t d = layout.ndim(); d-- > 0;) {
    if (layout.shape[d] > 1 && layout.strides[d] != expected) return false;
    expected *= static_cast<ptrdiff_t>(layout.shape[d]);
  }
  return true;
}

bool OverlapsItself(const TensorLayout &layout) {
  std::vector<std::pair<size_t, size_t>> dims;  // (|stride|, size) of each dim of size > 1
  for (size_t d = 0; d < layout.ndim(); ++d) {
    if (layout.shape[d] == 0) return false;  // no elements at all
    if (layout.shape[d] > 1) dims.emplace_back(static_cast<size_t>(std::llabs(layout.strides[d])), layout.shape[d]);
  }
  std::sort(dims.begin(), dims.end());
  size_t extent = 0;  // largest offset distance reachable with the dims seen so far
  for (const auto &[stride, size] : dims) {
    if (stride <= extent) return true;
    extent += stride * (size - 1);
  }
  return false;
}

TensorLayout WithoutDim(const TensorLayout &layout, size_t axis) {
  TensorLayout out = layout;
  out.shape.erase(out.shape.begin() + static_cast<ptrdiff_t>(axis));
  out.strides.erase(out.strides.begin() + static_cast<ptrdiff_t>(axis));
  return out;
}

}  // namespace infinicts::ref::op

using infinicts::ref::op::DtypeSize;
using infinicts::ref::op::kMaxTensorDims;

__INFINI_C infiniStatus_t infiniopCreateTensorDescriptor(infiniopTensorDescriptor_t *desc_ptr, size_t ndim,
                                                         const size_t *shape, const ptrdiff_t *strides,
                                                         infiniDtype_t dtype) {
  if (desc_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (ndim > 0 && shape == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (DtypeSize(dtype) == 0) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (ndim > kMaxTensorDims) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  // The element count must fit in size_t (a zero dim makes the tensor empty).
  size_t count = 1;
  bool empty = false;
  for (size_t d = 0; d < ndim; ++d) {
    if (shape[d] == 0) empty = true;
  }
  for (size_t d = 0; d < ndim && !empty; ++d) {
    if (count > std::numeric_limits<size_t>::max() / shape[d]) return INFINI_STATUS_BAD_TENSOR_SHAPE;
    count *= shape[d];
  }
  auto *desc = new (std::nothrow) InfiniopTensorDescriptor{dtype, {}, {}};
  if (desc == nullptr) return INFINI_STATUS_INTERNAL_ERROR;
  desc->shape.assign(shape, shape + ndim);
  desc->strides.resize(ndim);
  if (strides != nullptr) {
    desc->strides.assign(strides, strides + ndim);
  } else {
    ptrdiff_t step = 1;
    for (size_t d = ndim; d-- > 0;) {
      desc->strides[d] = step;
      step *= static_cast<ptrdiff_t>(shape[d]);
    }
  }
  *desc_ptr = desc;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infiniopDestroyTensorDescriptor(infiniopTensorDescriptor_t desc) {
  if (desc == nullptr) return INFINI_STATUS_NULL_POINTER;
  delete desc;
  return INFINI_STATUS_SUCCESS;
}
