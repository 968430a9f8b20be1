// GroupStart/GroupEnd, per calling thread as in NCCL. Outside a group every call is
// enqueued at once. Inside one, calls are checked and numbered at once but their work is
// held back; the outermost GroupEnd enqueues one piece of work per stream that runs that
// stream's Sends first (they never wait) and then its other calls in call order. So a
// group in which each rank posts its Recv before its Send, which NCCL allows, makes
// progress instead of leaving every worker waiting in its Recv.
#ifndef INFINICTS_REF_CCL_GROUP_H
#define INFINICTS_REF_CCL_GROUP_H

#include <functional>

#include "infinirt.h"

namespace infinicts::ref::ccl {

void OpenGroup();

// Closes one level; the outermost enqueues the held work (the first failing enqueue's
// status is answered). BAD_PARAM when no group is open.
infiniStatus_t CloseGroup();

// Runs `work` on the stream of a rank on `device` (see rank_stream.h): enqueued now, or
// held by the calling thread's open group. `is_send` moves it ahead within the group.
infiniStatus_t SubmitForRank(int device, infinirtStream_t stream, bool is_send, std::function<void()> work);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_GROUP_H
