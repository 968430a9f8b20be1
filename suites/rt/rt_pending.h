// Long device work that holds a stream's later work back: D2D copies back and forth between two
// large buffers of its own. A case that enqueues it before the work it checks, and reads that
// work's results right after the synchronizing call under test, finds them unwritten where the
// call returned before the stream was done, however quickly the host enqueued everything.
#pragma once

#include <memory>

#include "infinirt.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {

class PendingWork {
 public:
  // Allocates and fills both buffers on the current device (fatal failures end the case; the
  // caller checks HasFatalFailure()).
  void Prepare(size_t bytes);
  // Enqueues `copies` copies of the whole buffer on `stream`, alternating direction.
  infiniStatus_t Enqueue(infinirtStream_t stream, int copies) const;
  size_t bytes() const { return bytes_; }

 private:
  size_t bytes_ = 0;
  std::unique_ptr<ScopedDeviceMemory> x_, y_;
};

}  // namespace infinicts::rt_cases
