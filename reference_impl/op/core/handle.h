// The handle: the runtime device it was created on (CPU, or NVIDIA in CUDA builds). The
// CUDA paths keep their per-device state (cuBLAS handles) in cuda/, not here, since
// descriptors outlive their handle.
#ifndef INFINICTS_REF_OP_CORE_HANDLE_H
#define INFINICTS_REF_OP_CORE_HANDLE_H

#include "infiniop/handle.h"

struct InfiniopHandle {
  infiniDevice_t device_type;
  int device_id;
};

#endif  // INFINICTS_REF_OP_CORE_HANDLE_H
