#include "core/stream_bridge.h"

#include <cstdio>
#include <exception>

#include "infinicts_ref/runtime_internal.h"

namespace infinicts::ref::op {

infiniStatus_t EnqueueOnStream(infiniDevice_t type, int device, void *stream, std::function<void()> work) {
  infiniDevice_t stream_type = INFINI_DEVICE_CPU;
  int stream_device = 0;
  const infiniStatus_t status = infinictsRefStreamDevice(stream, &stream_type, &stream_device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (stream_type != type || stream_device != device) return INFINI_STATUS_BAD_PARAM;
  return infinicts_ref::EnqueueReplayableOnStream(stream, [work = std::move(work)] {
    // Nothing can carry a failure back from the stream's worker; say it and go on.
    try {
      work();
    } catch (const std::exception &error) {
      std::fprintf(stderr, "libinfiniop: an operator failed on its stream: %s\n", error.what());
    }
  });
}

}  // namespace infinicts::ref::op
