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

size_t DtypeBytes(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_BYTE: case INFINI_DTYPE_BOOL: case INFINI_DTYPE_I8: case INFINI_DTYPE_U8:
    case INFINI_DTYPE_F8: return 1;
    case INFINI_DTYPE_I16: case INFINI_DTYPE_U16: case INFINI_DTYPE_F16: case INFINI_DTYPE_BF16:
    case INFINI_DTYPE_C16: return 2;
    case INFINI_DTYPE_I32: case INFINI_DTYPE_U32: case INFINI_DTYPE_F32: case INFINI_DTYPE_C32: return 4;
    case INFINI_DTYPE_I64: case INFINI_DTYPE_U64: case INFINI_DTYPE_F64: case INFINI_DTYPE_C64: return 8;
    case INFINI_DTYPE_C128: return 16;
    default: return 0;
  }
}

}  // namespace infinicts::fault
