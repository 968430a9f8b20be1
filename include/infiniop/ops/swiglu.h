/* SwiGLU: c = a * silu(b) = a * b / (1 + exp(-b)), elementwise. c, a and b have the same shape; an input may
 * broadcast along a dim by giving it stride 0. */
#ifndef INFINICTS_INFINIOP_OPS_SWIGLU_H
#define INFINICTS_INFINIOP_OPS_SWIGLU_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopSwiGLUDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateSwiGLUDescriptor(infiniopHandle_t handle,
                                                               infiniopSwiGLUDescriptor_t *desc_ptr,
                                                               infiniopTensorDescriptor_t c_desc,
                                                               infiniopTensorDescriptor_t a_desc,
                                                               infiniopTensorDescriptor_t b_desc);
__INFINI_C __export infiniStatus_t infiniopGetSwiGLUWorkspaceSize(infiniopSwiGLUDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopSwiGLU(infiniopSwiGLUDescriptor_t desc,
                                               void *workspace,
                                               size_t workspace_size,
                                               void *c,
                                               const void *a,
                                               const void *b,
                                               void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroySwiGLUDescriptor(infiniopSwiGLUDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_SWIGLU_H */
