/* LogSoftmax along dimension `dim` (negative counts from the end):
 * output = input - max - log(sum(exp(input - max))). */
#ifndef INFINICTS_INFINIOP_OPS_LOG_SOFTMAX_H
#define INFINICTS_INFINIOP_OPS_LOG_SOFTMAX_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopLogSoftmaxDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateLogSoftmaxDescriptor(infiniopHandle_t handle,
                                                                      infiniopLogSoftmaxDescriptor_t *desc_ptr,
                                                                      infiniopTensorDescriptor_t output_desc,
                                                                      infiniopTensorDescriptor_t input_desc,
                                                                      int dim);
__INFINI_C __export infiniStatus_t infiniopGetLogSoftmaxWorkspaceSize(infiniopLogSoftmaxDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopLogSoftmax(infiniopLogSoftmaxDescriptor_t desc,
                                                      void *workspace,
                                                      size_t workspace_size,
                                                      void *output,
                                                      const void *input,
                                                      void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyLogSoftmaxDescriptor(infiniopLogSoftmaxDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_LOG_SOFTMAX_H */
