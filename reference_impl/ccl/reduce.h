// Element-wise reduction of several equally long arrays into one, for every number dtype
// and reduction op: the arithmetic of AllReduce and ReduceScatter.
#ifndef INFINICTS_REF_CCL_REDUCE_H
#define INFINICTS_REF_CCL_REDUCE_H

#include <cstddef>

#include "infiniccl.h"

namespace infinicts::ref::ccl {

// dst[i] = op over s of sources[s][i], for i in [0, count). `nranks` is the divisor of AVG.
// dst may be one of the sources (in place); otherwise it must not overlap them.
using ReduceFunction = void (*)(const void *const *sources, int nsources, void *dst, size_t count, int nranks);

// The function for a number dtype and an op in range; NULL for anything else.
ReduceFunction FindReduceFunction(infiniDtype_t dtype, infinicclReduceOp_t op);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_REDUCE_H
