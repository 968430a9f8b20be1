// Early return on a failed status, the one control-flow helper every file uses.
#ifndef INFINICTS_REF_OP_CORE_STATUS_H
#define INFINICTS_REF_OP_CORE_STATUS_H

#include "infinicore.h"

#define INFINIOP_RETURN_IF_ERROR(expr)                          \
  do {                                                          \
    const infiniStatus_t infiniop_status_ = (expr);             \
    if (infiniop_status_ != INFINI_STATUS_SUCCESS) return infiniop_status_; \
  } while (0)

#endif  // INFINICTS_REF_OP_CORE_STATUS_H
