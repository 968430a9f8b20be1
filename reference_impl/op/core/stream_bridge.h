// How an operator's work reaches a runtime stream: queued behind everything already on
// that stream, run by the stream's worker, in order with the runtime's own work. Operators'
// work reads its tensors when it runs, so a stream capturing a graph records it for replay.
#ifndef INFINICTS_REF_OP_CORE_STREAM_BRIDGE_H
#define INFINICTS_REF_OP_CORE_STREAM_BRIDGE_H

#include <functional>

#include "infinicore.h"

namespace infinicts::ref::op {

// Queues `work` on `stream` (NULL: the calling thread's current device's default
// stream). The descriptor was made for (type, device): a stream of another device is
// refused with BAD_PARAM, an unknown stream with the runtime's answer.
infiniStatus_t EnqueueOnStream(infiniDevice_t type, int device, void *stream, std::function<void()> work);

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_STREAM_BRIDGE_H
