/* RandomSample: draws one index from the logits `probs` (1-D) into the 0-D integer
 * tensor `result`, under random_val, topp, topk and temperature (argmax when
 * random_val, topp or temperature is 0, or topk is 1). */
#ifndef INFINICTS_INFINIOP_OPS_RANDOM_SAMPLE_H
#define INFINICTS_INFINIOP_OPS_RANDOM_SAMPLE_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopRandomSampleDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateRandomSampleDescriptor(infiniopHandle_t handle,
                                                                        infiniopRandomSampleDescriptor_t *desc_ptr,
                                                                        infiniopTensorDescriptor_t result,
                                                                        infiniopTensorDescriptor_t probs);
__INFINI_C __export infiniStatus_t infiniopGetRandomSampleWorkspaceSize(infiniopRandomSampleDescriptor_t desc,
                                                                        size_t *size);
__INFINI_C __export infiniStatus_t infiniopRandomSample(infiniopRandomSampleDescriptor_t desc,
                                                        void *workspace,
                                                        size_t workspace_size,
                                                        void *result,
                                                        const void *probs,
                                                        float random_val,
                                                        float topp,
                                                        int topk,
                                                        float temperature,
                                                        void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyRandomSampleDescriptor(infiniopRandomSampleDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_RANDOM_SAMPLE_H */
