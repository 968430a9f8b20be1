// The collectives of ranks in several processes (process_group.h). Where every rank's buffers
// lie in shareable device blocks (peer_blocks.h), each rank maps its peers' and the in-process
// algorithm (collectives.h) runs on them directly. Otherwise a rank cannot reach another
// process's buffers, so the collective runs in windows that fit the ranks' shared
// slots: every rank stages its window of input in its send slot, the in-process algorithm
// (collectives.h) runs on the slots, and every rank copies its window of output from its
// receive slot. In place works as in one process: a window is staged before any of its
// output is written back, and windows do not overlap.
#ifndef INFINICTS_REF_CCL_COLLECTIVES_ACROSS_H
#define INFINICTS_REF_CCL_COLLECTIVES_ACROSS_H

#include "ccl/collectives.h"
#include "ccl/process_group.h"

namespace infinicts::ref::ccl {

void RunCollectiveAcross(ProcessGroup &group, int rank, const CollectiveCall &call);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_COLLECTIVES_ACROSS_H
