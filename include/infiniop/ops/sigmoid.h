/* Sigmoid: y = 1 / (1 + exp(-x)), elementwise; y and x have the same shape. */
#ifndef INFINICTS_INFINIOP_OPS_SIGMOID_H
#define INFINICTS_INFINIOP_OPS_SIGMOID_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopSigmoidDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateSigmoidDescriptor(infiniopHandle_t handle,
                                                                infiniopSigmoidDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y_desc,
                                                                infiniopTensorDescriptor_t x_desc);
__INFINI_C __export infiniStatus_t infiniopGetSigmoidWorkspaceSize(infiniopSigmoidDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopSigmoid(infiniopSigmoidDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *y,
                                                const void *x,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroySigmoidDescriptor(infiniopSigmoidDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_SIGMOID_H */
