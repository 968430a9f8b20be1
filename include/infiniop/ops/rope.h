/* RoPE on x of shape (seq, nhead, dhead) or (batch, seq, nhead, dhead). For each
 * pair (p0, p1) of the head dim and i < dhead/2, with s = sin_table[pos][i] and
 * c = cos_table[pos][i]: y[p0] = x[p0]*c - x[p1]*s, y[p1] = x[p0]*s + x[p1]*c.
 * GPT_J pairs (2i, 2i+1); GPT_NEOX pairs (i, i + dhead/2). */
#ifndef INFINICTS_INFINIOP_OPS_ROPE_H
#define INFINICTS_INFINIOP_OPS_ROPE_H

#include "../operator_descriptor.h"

typedef enum {
    INFINIOP_ROPE_ALGO_GPT_J = 0,
    INFINIOP_ROPE_ALGO_GPT_NEOX = 1,
    INFINIOP_ROPE_ALGO_COUNT = 2,
} infiniopRoPEAlgo_t;

typedef struct InfiniopDescriptor *infiniopRoPEDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateRoPEDescriptor(infiniopHandle_t handle,
                                                                infiniopRoPEDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y,
                                                                infiniopTensorDescriptor_t x,
                                                                infiniopTensorDescriptor_t pos_ids,
                                                                infiniopTensorDescriptor_t sin_table,
                                                                infiniopTensorDescriptor_t cos_table,
                                                                infiniopRoPEAlgo_t algo);
__INFINI_C __export infiniStatus_t infiniopGetRoPEWorkspaceSize(infiniopRoPEDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopRoPE(infiniopRoPEDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *y,
                                                const void *x,
                                                const void *pos_ids,
                                                const void *sin_table,
                                                const void *cos_table,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyRoPEDescriptor(infiniopRoPEDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_ROPE_H */
