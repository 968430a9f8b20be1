#include "op/tensor_layout.h"

namespace infinicts::fault {

size_t TensorLayout::ElementCount() const {
  size_t count = 1;
  for (size_t size : shape) count *= size;
  return count;
}

ptrdiff_t TensorLayout::HighestOffset() const {
  ptrdiff_t highest = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return 0;
    if (strides[d] > 0) highest += strides[d] * static_cast<ptrdiff_t>(shape[d] - 1);
  }
  return highest;
}

std::vector<ptrdiff_t> ContiguousStrides(const std::vector<size_t> &shape) {
  std::vector<ptrdiff_t> strides(shape.size());
  ptrdiff_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= static_cast<ptrdiff_t>(shape[d] == 0 ? 1 : shape[d]);
  }
  return strides;
}

}  // namespace infinicts::fault
