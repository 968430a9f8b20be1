/* Conv: n-d convolution (cross-correlation) of x (N, Cin, d1..dn) with w
 * (Cout, Cin, k1..kn) into y (N, Cout, o1..on), plus an optional bias (Cout)
 * (b_desc NULL: none). pads: size_t[n] (each side), strides: ptrdiff_t[n],
 * dilations: size_t[n]; a NULL array means 0, 1 and 1 respectively. */
#ifndef INFINICTS_INFINIOP_OPS_CONV_H
#define INFINICTS_INFINIOP_OPS_CONV_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopConvDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateConvDescriptor(infiniopHandle_t handle,
                                                                infiniopConvDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y_desc,
                                                                infiniopTensorDescriptor_t x_desc,
                                                                infiniopTensorDescriptor_t w_desc,
                                                                infiniopTensorDescriptor_t b_desc,
                                                                void *pads,
                                                                void *strides,
                                                                void *dilations,
                                                                size_t n);
__INFINI_C __export infiniStatus_t infiniopGetConvWorkspaceSize(infiniopConvDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopConv(infiniopConvDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *y,
                                                const void *x,
                                                const void *w,
                                                const void *bias,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyConvDescriptor(infiniopConvDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_CONV_H */
