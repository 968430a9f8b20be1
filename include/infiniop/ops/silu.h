/* Silu: y = x / (1 + exp(-x)), elementwise; y and x have the same shape. */
#ifndef INFINICTS_INFINIOP_OPS_SILU_H
#define INFINICTS_INFINIOP_OPS_SILU_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopSiluDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateSiluDescriptor(infiniopHandle_t handle,
                                                                infiniopSiluDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y_desc,
                                                                infiniopTensorDescriptor_t x_desc);
__INFINI_C __export infiniStatus_t infiniopGetSiluWorkspaceSize(infiniopSiluDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopSilu(infiniopSiluDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *y,
                                                const void *x,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroySiluDescriptor(infiniopSiluDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_SILU_H */
