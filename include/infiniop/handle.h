/* infinicts: the InfiniOP handle. A handle binds to the calling thread's current
 * runtime device when it is created; descriptors made from it run on that device.
 * ABI-compatible with InfiniCore's include/infiniop/handle.h. */
#ifndef INFINICTS_INFINIOP_HANDLE_H
#define INFINICTS_INFINIOP_HANDLE_H

#include "../infinicore.h"

struct InfiniopHandle;
typedef struct InfiniopHandle *infiniopHandle_t;

__INFINI_C __export infiniStatus_t infiniopCreateHandle(infiniopHandle_t *handle_ptr);
__INFINI_C __export infiniStatus_t infiniopDestroyHandle(infiniopHandle_t handle);

#endif /* INFINICTS_INFINIOP_HANDLE_H */
