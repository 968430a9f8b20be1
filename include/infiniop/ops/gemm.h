/* Gemm: C = alpha * A * B + beta * C. 2-D (m,k)x(k,n) or 3-D batched; a batch of 1
 * broadcasts. Each matrix has unit stride in one of its two matrix dims. */
#ifndef INFINICTS_INFINIOP_OPS_GEMM_H
#define INFINICTS_INFINIOP_OPS_GEMM_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopGemmDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateGemmDescriptor(infiniopHandle_t handle,
                                                                infiniopGemmDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t c_desc,
                                                                infiniopTensorDescriptor_t a_desc,
                                                                infiniopTensorDescriptor_t b_desc);
__INFINI_C __export infiniStatus_t infiniopGetGemmWorkspaceSize(infiniopGemmDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopGemm(infiniopGemmDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *c,
                                                const void *a,
                                                const void *b,
                                                float alpha,
                                                float beta,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyGemmDescriptor(infiniopGemmDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_GEMM_H */
