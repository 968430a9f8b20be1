// Which stream a rank's call runs on, and putting work there.
//
// A stream handle must belong to the rank's device (else BAD_PARAM, as libinfiniop does
// for a descriptor's device). NULL means the default stream of the rank's device, not of
// the calling thread's current device: one thread may drive every rank (as with NCCL,
// whose NULL stream is that of the communicator's device), and the ranks must not all
// land on one worker, where the first would wait for the others forever.
#ifndef INFINICTS_REF_CCL_RANK_STREAM_H
#define INFINICTS_REF_CCL_RANK_STREAM_H

#include <functional>

#include "infinirt.h"

namespace infinicts::ref::ccl {

// SUCCESS when `stream` may carry work of a rank on CPU device `device`.
infiniStatus_t CheckRankStream(int device, infinirtStream_t stream);

// Enqueues `work` on that stream (after CheckRankStream's checks).
infiniStatus_t EnqueueForRank(int device, infinirtStream_t stream, std::function<void()> work);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_RANK_STREAM_H
