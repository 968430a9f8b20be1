// The exported functions run their bodies through this: an allocation failure (or any
// other exception) becomes INTERNAL_ERROR instead of escaping into C callers.
#ifndef INFINICTS_REF_CCL_API_GUARD_H
#define INFINICTS_REF_CCL_API_GUARD_H

#include "infinicore.h"

namespace infinicts::ref::ccl {

template <class Body>
infiniStatus_t Guarded(Body body) {
  try {
    return body();
  } catch (...) {
    return INFINI_STATUS_INTERNAL_ERROR;
  }
}

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_API_GUARD_H
