#include "rt_pending.h"

#include "cts/case.h"
#include "rt_data.h"

namespace infinicts::rt_cases {

using cts::rt;

void PendingWork::Prepare(size_t bytes) {
  bytes_ = bytes;
  void *x = nullptr, *y = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&x, bytes), x, bytes);
  x_ = std::make_unique<ScopedDeviceMemory>(x);
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&y, bytes), y, bytes);
  y_ = std::make_unique<ScopedDeviceMemory>(y);
  // Touched once, so the copies cost device time only.
  CTS_ASSERT_OK(rt().infinirtMemset(x, 0x5a, bytes));
  CTS_ASSERT_OK(rt().infinirtMemset(y, 0xa5, bytes));
  CTS_ASSERT_OK(rt().infinirtDeviceSynchronize());
}

infiniStatus_t PendingWork::Enqueue(infinirtStream_t stream, int copies) const {
  for (int i = 0; i < copies; ++i) {
    void *dst = (i % 2 == 0 ? y_ : x_)->get();
    const void *src = (i % 2 == 0 ? x_ : y_)->get();
    if (auto status = rt().infinirtMemcpyAsync(dst, src, bytes_, INFINIRT_MEMCPY_D2D, stream)) return status;
  }
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::rt_cases
