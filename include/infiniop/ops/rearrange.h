/* Rearrange: copies src into dst, two layouts of the same shape and dtype.
 * No workspace. */
#ifndef INFINICTS_INFINIOP_OPS_REARRANGE_H
#define INFINICTS_INFINIOP_OPS_REARRANGE_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopRearrangeDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateRearrangeDescriptor(infiniopHandle_t handle,
                                                                     infiniopRearrangeDescriptor_t *desc_ptr,
                                                                     infiniopTensorDescriptor_t dst,
                                                                     infiniopTensorDescriptor_t src);
__INFINI_C __export infiniStatus_t infiniopRearrange(infiniopRearrangeDescriptor_t desc,
                                                     void *dst,
                                                     const void *src,
                                                     void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyRearrangeDescriptor(infiniopRearrangeDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_REARRANGE_H */
