/* CausalSoftmax over the last dim of (..., seq, total): row i keeps the columns
 * j <= total - seq + i (softmax over them) and writes 0 to the others. */
#ifndef INFINICTS_INFINIOP_OPS_CAUSAL_SOFTMAX_H
#define INFINICTS_INFINIOP_OPS_CAUSAL_SOFTMAX_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopCausalSoftmaxDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateCausalSoftmaxDescriptor(infiniopHandle_t handle,
                                                                         infiniopCausalSoftmaxDescriptor_t *desc_ptr,
                                                                         infiniopTensorDescriptor_t y_desc,
                                                                         infiniopTensorDescriptor_t x_desc);
__INFINI_C __export infiniStatus_t infiniopGetCausalSoftmaxWorkspaceSize(infiniopCausalSoftmaxDescriptor_t desc,
                                                                         size_t *size);
__INFINI_C __export infiniStatus_t infiniopCausalSoftmax(infiniopCausalSoftmaxDescriptor_t desc,
                                                         void *workspace,
                                                         size_t workspace_size,
                                                         void *y,
                                                         const void *x,
                                                         void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyCausalSoftmaxDescriptor(infiniopCausalSoftmaxDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_CAUSAL_SOFTMAX_H */
