/* Clip: y = max(min(x, max_val), min_val), elementwise. The bounds are tensors of
 * y's shape (stride 0 broadcasts a single bound). */
#ifndef INFINICTS_INFINIOP_OPS_CLIP_H
#define INFINICTS_INFINIOP_OPS_CLIP_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopClipDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateClipDescriptor(infiniopHandle_t handle,
                                                                infiniopClipDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y_desc,
                                                                infiniopTensorDescriptor_t x_desc,
                                                                infiniopTensorDescriptor_t min_val_desc,
                                                                infiniopTensorDescriptor_t max_val_desc);
__INFINI_C __export infiniStatus_t infiniopGetClipWorkspaceSize(infiniopClipDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopClip(infiniopClipDescriptor_t desc,
                                                void *workspace,
                                                size_t workspace_size,
                                                void *y,
                                                const void *x,
                                                const void *min_val,
                                                const void *max_val,
                                                void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyClipDescriptor(infiniopClipDescriptor_t desc);

#endif /* INFINICTS_INFINIOP_OPS_CLIP_H */
