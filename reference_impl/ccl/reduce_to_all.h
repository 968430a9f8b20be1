// AllReduce's one pass for the dtypes and ops with a vector kernel (SUM, PROD, MAX, MIN of
// F32; of F16 and BF16 too on a CPU with AVX-512): each vector of the sources is reduced
// in registers and stored straight into every destination, so the reads and the writes
// stream together (no block to fill and copy out again).
#ifndef INFINICTS_REF_CCL_REDUCE_TO_ALL_H
#define INFINICTS_REF_CCL_REDUCE_TO_ALL_H

#include <cstddef>

#include "infiniccl.h"

namespace infinicts::ref::ccl {

// dsts[d][i] = op over s of sources[s][i] for every d < ndsts and i < count, with the
// arithmetic of FindReduceFunction's (the same results, bit for bit). All sources of an
// element are read before it is stored, so a destination may be one of the sources; it
// must not overlap them otherwise. With `streaming`, destinations on a vector boundary get
// streaming stores (the caller fences them).
using ReduceToAllFunction = void (*)(const void *const *sources, int nsources, void *const *dsts, int ndsts,
                                     size_t count, bool streaming);

// The kernel for a dtype and an op, or NULL where there is none (AllReduce then reduces
// a block at a time with FindReduceFunction's): the AVX-512 form on a CPU with it unless
// `allow_avx512` is false (tests check both forms), the SSE one otherwise.
ReduceToAllFunction FindReduceToAllFunction(infiniDtype_t dtype, infinicclReduceOp_t op, bool allow_avx512 = true);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_REDUCE_TO_ALL_H
