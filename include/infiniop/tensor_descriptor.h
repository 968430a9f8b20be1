/* infinicts: tensor descriptors (dtype, shape, strides in elements; no data).
 * strides == NULL means contiguous row-major.
 * ABI-compatible with InfiniCore's include/infiniop/tensor_descriptor.h. */
#ifndef INFINICTS_INFINIOP_TENSOR_DESCRIPTOR_H
#define INFINICTS_INFINIOP_TENSOR_DESCRIPTOR_H

#include "../infinicore.h"

struct InfiniopTensorDescriptor;
typedef struct InfiniopTensorDescriptor *infiniopTensorDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateTensorDescriptor(infiniopTensorDescriptor_t *desc_ptr,
                                                                  size_t ndim,
                                                                  const size_t *shape,
                                                                  const ptrdiff_t *strides,
                                                                  infiniDtype_t dtype);
__INFINI_C __export infiniStatus_t infiniopDestroyTensorDescriptor(infiniopTensorDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_TENSOR_DESCRIPTOR_H */
