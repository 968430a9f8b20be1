// The bytes of one element of a number dtype, as the collective faults need it to find
// elements in the buffers they rewrite; 0 for anything else (a call the target refuses).
#pragma once

#include <cstddef>

#include "infinicore.h"

namespace infinicts::fault {

inline size_t NumberSize(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_I8: case INFINI_DTYPE_U8: return 1;
    case INFINI_DTYPE_I16: case INFINI_DTYPE_U16: case INFINI_DTYPE_F16: case INFINI_DTYPE_BF16: return 2;
    case INFINI_DTYPE_I32: case INFINI_DTYPE_U32: case INFINI_DTYPE_F32: return 4;
    case INFINI_DTYPE_I64: case INFINI_DTYPE_U64: case INFINI_DTYPE_F64: return 8;
    default: return 0;
  }
}

}  // namespace infinicts::fault
