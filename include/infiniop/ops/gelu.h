/* Gelu: y = x / 2 * (1 + erf(x / sqrt(2))) (the erf form), elementwise; y and x have the same shape. */
#ifndef INFINICTS_INFINIOP_OPS_GELU_H
#define INFINICTS_INFINIOP_OPS_GELU_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopGeluDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateGeluDescriptor(infiniopHandle_t handle,
                                                                infiniopGeluDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y_desc,
                                                                infiniopTensorDescriptor_t x_desc);
__INFINI_C __export infiniStatus_t infiniopGetGeluWorkspaceSize(infiniopGeluDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopGelu(infiniopGeluDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *y,
                                                const void *x,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyGeluDescriptor(infiniopGeluDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_GELU_H */
