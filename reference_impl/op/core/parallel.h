// A small shared thread pool: ParallelFor splits an index range into chunks that the
// pool's workers and the calling thread run together. A ParallelFor issued from inside
// a chunk runs inline, so nesting never waits on itself.
#ifndef INFINICTS_REF_OP_CORE_PARALLEL_H
#define INFINICTS_REF_OP_CORE_PARALLEL_H

#include <cstddef>
#include <functional>

namespace infinicts::ref::op {

// Threads that take part in a ParallelFor (workers plus the caller).
size_t ParallelThreadCount();

// Runs body(begin, end) over disjoint chunks covering [0, n); each chunk holds at
// least `grain` indices (except the last). Returns when every chunk has run.
void ParallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)> &body);

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_PARALLEL_H
