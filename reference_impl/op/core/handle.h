// The handle: the runtime device it was created on.
#ifndef INFINICTS_REF_OP_CORE_HANDLE_H
#define INFINICTS_REF_OP_CORE_HANDLE_H

#include "infiniop/handle.h"

struct InfiniopHandle {
  infiniDevice_t device_type;
  int device_id;
};

#endif  // INFINICTS_REF_OP_CORE_HANDLE_H
