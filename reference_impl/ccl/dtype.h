// The dtypes a collective carries: the number dtypes of infinicore.h, and their sizes.
#ifndef INFINICTS_REF_CCL_DTYPE_H
#define INFINICTS_REF_CCL_DTYPE_H

#include <cstddef>

#include "infinicore.h"

namespace infinicts::ref::ccl {

// Bytes per element of a number dtype; 0 for every other value (BYTE, BOOL, F8, complex,
// INVALID, out of range), which the collectives refuse. Takes the raw value (c_enum.h).
inline size_t NumberDtypeSize(int dtype) {
  switch (dtype) {
    case INFINI_DTYPE_I8:
    case INFINI_DTYPE_U8:
      return 1;
    case INFINI_DTYPE_I16:
    case INFINI_DTYPE_U16:
    case INFINI_DTYPE_F16:
    case INFINI_DTYPE_BF16:
      return 2;
    case INFINI_DTYPE_I32:
    case INFINI_DTYPE_U32:
    case INFINI_DTYPE_F32:
      return 4;
    case INFINI_DTYPE_I64:
    case INFINI_DTYPE_U64:
    case INFINI_DTYPE_F64:
      return 8;
    default:
      return 0;
  }
}

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_DTYPE_H
