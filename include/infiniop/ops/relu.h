/* Relu: y = max(x, 0), elementwise; y and x have the same shape. */
#ifndef INFINICTS_INFINIOP_OPS_RELU_H
#define INFINICTS_INFINIOP_OPS_RELU_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopReluDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateReluDescriptor(infiniopHandle_t handle,
                                                                infiniopReluDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y_desc,
                                                                infiniopTensorDescriptor_t x_desc);
__INFINI_C __export infiniStatus_t infiniopGetReluWorkspaceSize(infiniopReluDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopRelu(infiniopReluDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *y,
                                                const void *x,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyReluDescriptor(infiniopReluDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_RELU_H */
