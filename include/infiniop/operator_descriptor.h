/* infinicts: the common base of every operator descriptor. Every operator's
 * descriptor type is a `struct InfiniopDescriptor *`, so these two queries accept any.
 * ABI-compatible with InfiniCore's include/infiniop/operator_descriptor.h. */
#ifndef INFINICTS_INFINIOP_OPERATOR_DESCRIPTOR_H
#define INFINICTS_INFINIOP_OPERATOR_DESCRIPTOR_H

#include "handle.h"
#include "tensor_descriptor.h"

struct InfiniopDescriptor;

__INFINI_C __export infiniStatus_t infiniopGetDescriptorDeviceType(const struct InfiniopDescriptor *desc_ptr,
                                                                   infiniDevice_t *device_type);
__INFINI_C __export infiniStatus_t infiniopGetDescriptorDeviceId(const struct InfiniopDescriptor *desc_ptr,
                                                                 int *device_id);

#endif /* INFINICTS_INFINIOP_OPERATOR_DESCRIPTOR_H */
