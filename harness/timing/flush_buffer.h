// The device buffer a cold-cache measurement writes before every timed iteration, so that
// the work under test finds none of its data in the device's caches.
#pragma once

#include <cstddef>

#include "timing/rank_device.h"

namespace infinicts::timing {

class FlushBuffer {
 public:
  // Allocates `bytes` on the stream's device, halving down to 1 MiB while allocation
  // fails, and tries one write. Ready() is false when no size could be allocated or the
  // backend cannot write it asynchronously (NOT_IMPLEMENTED); other failures throw.
  FlushBuffer(const TimedStream &timed, size_t bytes);
  ~FlushBuffer();
  FlushBuffer(FlushBuffer &&other) noexcept;
  FlushBuffer(const FlushBuffer &) = delete;
  FlushBuffer &operator=(const FlushBuffer &) = delete;
  FlushBuffer &operator=(FlushBuffer &&) = delete;

  bool Ready() const { return data_ != nullptr; }
  size_t bytes() const { return bytes_; }
  // Enqueues the write on the stream; the caller has made the stream's device current.
  void Enqueue() const;

 private:
  void Release();

  TimedStream timed_;
  void *data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace infinicts::timing
