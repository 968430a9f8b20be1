#include "timing/flush_buffer.h"

#include "timing/rt_check.h"

namespace infinicts::timing {
namespace {

constexpr size_t kSmallestFlushBytes = size_t{1} << 20;

}  // namespace

FlushBuffer::FlushBuffer(const TimedStream &timed, size_t bytes) : timed_(timed) {
  timed_.MakeCurrent();
  for (size_t size = bytes; size > 0; size /= 2) {
    void *data = nullptr;
    if (timed_.rt->infinirtMalloc(&data, size) == INFINI_STATUS_SUCCESS && data != nullptr) {
      data_ = data;
      bytes_ = size;
      break;
    }
    if (size / 2 < kSmallestFlushBytes) break;
  }
  if (data_ == nullptr) return;
  const int status = timed_.rt->infinirtMemsetAsync(data_, 0, bytes_, timed_.stream);
  if (IsUnsupported(status)) {
    Release();
    return;
  }
  // The constructor throws past no destructor: release before reporting a failure.
  if (status != INFINI_STATUS_SUCCESS) {
    Release();
    CheckRt(status, "infinirtMemsetAsync");
  }
  const int synchronized = timed_.rt->infinirtStreamSynchronize(timed_.stream);
  if (synchronized != INFINI_STATUS_SUCCESS) {
    Release();
    CheckRt(synchronized, "infinirtStreamSynchronize");
  }
}

FlushBuffer::FlushBuffer(FlushBuffer &&other) noexcept : timed_(other.timed_), data_(other.data_), bytes_(other.bytes_) {
  other.data_ = nullptr;
  other.bytes_ = 0;
}

FlushBuffer::~FlushBuffer() { Release(); }

void FlushBuffer::Release() {
  if (data_ == nullptr) return;
  timed_.MakeCurrentQuietly();
  // Whatever write is still in flight must end before the memory goes back.
  timed_.rt->infinirtStreamSynchronize(timed_.stream);
  timed_.rt->infinirtFree(data_);
  data_ = nullptr;
  bytes_ = 0;
}

void FlushBuffer::Enqueue() const {
  CheckRt(timed_.rt->infinirtMemsetAsync(data_, 0, bytes_, timed_.stream), "infinirtMemsetAsync");
}

}  // namespace infinicts::timing
