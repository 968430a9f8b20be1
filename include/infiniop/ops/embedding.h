/* Embedding: output[i..., :] = weight[input[i...], :]; input holds integer indices,
 * weight is (vocab, dim), output is input's shape plus (dim). No workspace. */
#ifndef INFINICTS_INFINIOP_OPS_EMBEDDING_H
#define INFINICTS_INFINIOP_OPS_EMBEDDING_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopEmbeddingDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateEmbeddingDescriptor(infiniopHandle_t handle,
                                                                     infiniopEmbeddingDescriptor_t *desc_ptr,
                                                                     infiniopTensorDescriptor_t output_desc,
                                                                     infiniopTensorDescriptor_t input_desc,
                                                                     infiniopTensorDescriptor_t weight_desc);
__INFINI_C __export infiniStatus_t infiniopEmbedding(infiniopEmbeddingDescriptor_t desc,
                                                     void *output,
                                                     const void *input,
                                                     const void *weight,
                                                     void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyEmbeddingDescriptor(infiniopEmbeddingDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_EMBEDDING_H */
