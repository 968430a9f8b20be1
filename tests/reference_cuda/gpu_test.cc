// The CUDA runtime on a GPU: memory of every kind, copies of every kind, fills, events and
// their timing, stream-ordered allocation, the allocation registry and the raw CUDA stream.
// Every case skips where CUDA sees no device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "cuda_count.h"
#include "infinicts_ref/runtime_internal.h"
#include "infinirt.h"

namespace reference_cuda_test {
namespace {

#define ASSERT_RT_OK(call) ASSERT_EQ((call), INFINI_STATUS_SUCCESS) << #call

class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (CudaDeviceCount() == 0) GTEST_SKIP() << "no CUDA device";
    ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0));
  }
  void TearDown() override { infinirtSetDevice(INFINI_DEVICE_CPU, 0); }

  static std::vector<unsigned char> Pattern(size_t bytes, unsigned seed) {
    std::vector<unsigned char> data(bytes);
    for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>(i * 31 + seed);
    return data;
  }
};

TEST_F(Gpu, MemInfoAndMallocAreVisible) {
  size_t free_before = 0, total = 0;
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_NVIDIA, 0, &free_before, &total));
  EXPECT_GT(total, 0u);
  EXPECT_LE(free_before, total);
  void *p = nullptr;
  const size_t bytes = size_t{256} << 20;
  ASSERT_RT_OK(infinirtMalloc(&p, bytes));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
  size_t free_after = 0;
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_NVIDIA, 0, &free_after, &total));
  EXPECT_LE(free_after + bytes, free_before);
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int id = -1;
  ASSERT_RT_OK(infinictsRefPointerDevice(static_cast<char *>(p) + 100, 16, &type, &id));
  EXPECT_EQ(type, INFINI_DEVICE_NVIDIA);
  EXPECT_EQ(id, 0);
  EXPECT_EQ(infinirtFree(static_cast<char *>(p) + 1), INFINI_STATUS_BAD_PARAM);
  ASSERT_RT_OK(infinirtFree(p));
  EXPECT_EQ(infinirtFree(p), INFINI_STATUS_BAD_PARAM);
}

TEST_F(Gpu, HugeMallocIsOutOfMemory) {
  void *p = nullptr;
  EXPECT_EQ(infinirtMalloc(&p, size_t{1} << 50), INFINI_STATUS_INTERNAL_ERROR);
}

TEST_F(Gpu, CopiesOfEveryKindRoundTrip) {
  const size_t bytes = 1 << 20;
  const std::vector<unsigned char> source = Pattern(bytes, 7);
  void *pinned = nullptr, *a = nullptr, *b = nullptr;
  ASSERT_RT_OK(infinirtMallocHost(&pinned, bytes));
  ASSERT_RT_OK(infinirtMalloc(&a, bytes));
  ASSERT_RT_OK(infinirtMalloc(&b, bytes));
  std::vector<unsigned char> back(bytes, 0);
  ASSERT_RT_OK(infinirtMemcpy(pinned, source.data(), bytes, INFINIRT_MEMCPY_H2H));
  ASSERT_RT_OK(infinirtMemcpy(a, pinned, bytes, INFINIRT_MEMCPY_H2D));
  ASSERT_RT_OK(infinirtMemcpy(b, a, bytes, INFINIRT_MEMCPY_D2D));
  ASSERT_RT_OK(infinirtMemcpy(back.data(), b, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_EQ(back, source);
  // The same through a stream, pageable host memory this time.
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  const std::vector<unsigned char> second = Pattern(bytes, 99);
  std::vector<unsigned char> host(bytes, 0), out(bytes, 0);
  ASSERT_RT_OK(infinirtMemcpyAsync(host.data(), second.data(), bytes, INFINIRT_MEMCPY_H2H, stream));
  ASSERT_RT_OK(infinirtMemcpyAsync(a, host.data(), bytes, INFINIRT_MEMCPY_H2D, stream));
  ASSERT_RT_OK(infinirtMemcpyAsync(b, a, bytes, INFINIRT_MEMCPY_D2D, stream));
  ASSERT_RT_OK(infinirtMemcpyAsync(out.data(), b, bytes, INFINIRT_MEMCPY_D2H, stream));
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(out, second);
  // Host memory on the device side of a copy is refused by the dispatch layer.
  EXPECT_EQ(infinirtMemcpy(pinned, a, bytes, INFINIRT_MEMCPY_H2D), INFINI_STATUS_BAD_PARAM);
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
  ASSERT_RT_OK(infinirtFree(a));
  ASSERT_RT_OK(infinirtFree(b));
  EXPECT_EQ(infinirtFree(pinned), INFINI_STATUS_BAD_PARAM);
  ASSERT_RT_OK(infinirtFreeHost(pinned));
}

TEST_F(Gpu, MemsetFillsTheLowByte) {
  const size_t bytes = 4096;
  void *p = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&p, bytes));
  ASSERT_RT_OK(infinirtMemset(p, 0x1A5, bytes));
  std::vector<unsigned char> out(bytes, 0);
  ASSERT_RT_OK(infinirtMemcpy(out.data(), p, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_EQ(out, std::vector<unsigned char>(bytes, 0xA5));
  ASSERT_RT_OK(infinirtMemsetAsync(p, 3, bytes / 2, nullptr));
  ASSERT_RT_OK(infinirtMemcpyAsync(out.data(), p, bytes, INFINIRT_MEMCPY_D2H, nullptr));
  ASSERT_RT_OK(infinirtDeviceSynchronize());
  for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(out[i], i < bytes / 2 ? 3 : 0xA5) << i;
  ASSERT_RT_OK(infinirtFree(p));
}

TEST_F(Gpu, EventsTimeAndFollowTheSpec) {
  infinirtEvent_t start = nullptr, end = nullptr, untimed = nullptr, blocking = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&start));
  ASSERT_RT_OK(infinirtEventCreate(&end));
  ASSERT_RT_OK(infinirtEventCreateWithFlags(&untimed, INFINIRT_EVENT_DISABLE_TIMING));
  ASSERT_RT_OK(infinirtEventCreateWithFlags(&blocking, INFINIRT_EVENT_BLOCKING_SYNC | INFINIRT_EVENT_DISABLE_TIMING));
  infinirtEventStatus_t status = INFINIRT_EVENT_NOT_READY;
  ASSERT_RT_OK(infinirtEventQuery(start, &status));
  EXPECT_EQ(status, INFINIRT_EVENT_COMPLETE);  // never recorded
  ASSERT_RT_OK(infinirtEventSynchronize(start));
  float ms = -1;
  EXPECT_EQ(infinirtEventElapsedTime(&ms, start, end), INFINI_STATUS_BAD_PARAM);  // never recorded

  const size_t bytes = size_t{64} << 20;
  void *a = nullptr, *b = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&a, bytes));
  ASSERT_RT_OK(infinirtMalloc(&b, bytes));
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  ASSERT_RT_OK(infinirtEventRecord(start, stream));
  for (int i = 0; i < 8; ++i) ASSERT_RT_OK(infinirtMemcpyAsync(b, a, bytes, INFINIRT_MEMCPY_D2D, stream));
  ASSERT_RT_OK(infinirtEventRecord(end, stream));
  ASSERT_RT_OK(infinirtEventRecord(untimed, stream));
  ASSERT_RT_OK(infinirtEventRecord(blocking, stream));
  ASSERT_RT_OK(infinirtEventSynchronize(blocking));
  ASSERT_RT_OK(infinirtEventQuery(end, &status));
  EXPECT_EQ(status, INFINIRT_EVENT_COMPLETE);
  ASSERT_RT_OK(infinirtEventElapsedTime(&ms, start, end));
  EXPECT_GT(ms, 0.0f);
  EXPECT_EQ(infinirtEventElapsedTime(&ms, start, untimed), INFINI_STATUS_BAD_PARAM);

  // A second stream waits for the first one's event.
  infinirtStream_t waiter = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&waiter));
  ASSERT_RT_OK(infinirtEventRecord(end, stream));
  ASSERT_RT_OK(infinirtStreamWaitEvent(waiter, end));
  ASSERT_RT_OK(infinirtStreamSynchronize(waiter));
  for (infinirtEvent_t event : {start, end, untimed, blocking}) ASSERT_RT_OK(infinirtEventDestroy(event));
  ASSERT_RT_OK(infinirtStreamDestroy(waiter));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
  ASSERT_RT_OK(infinirtFree(a));
  ASSERT_RT_OK(infinirtFree(b));
}

TEST_F(Gpu, StreamOrderedAllocation) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  const size_t bytes = 1 << 16;
  void *p = nullptr;
  ASSERT_RT_OK(infinirtMallocAsync(&p, bytes, stream));
  ASSERT_NE(p, nullptr);
  const std::vector<unsigned char> source = Pattern(bytes, 3);
  std::vector<unsigned char> out(bytes, 0);
  ASSERT_RT_OK(infinirtMemcpyAsync(p, source.data(), bytes, INFINIRT_MEMCPY_H2D, stream));
  ASSERT_RT_OK(infinirtMemcpyAsync(out.data(), p, bytes, INFINIRT_MEMCPY_D2H, stream));
  ASSERT_RT_OK(infinirtFreeAsync(p, stream));
  EXPECT_EQ(infinirtFreeAsync(p, stream), INFINI_STATUS_BAD_PARAM);
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(out, source);
  // FreeAsync of a plain Malloc block, and Free of a stream-ordered one.
  void *plain = nullptr, *ordered = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&plain, bytes));
  ASSERT_RT_OK(infinirtFreeAsync(plain, stream));
  ASSERT_RT_OK(infinirtMallocAsync(&ordered, bytes, stream));
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  ASSERT_RT_OK(infinirtFree(ordered));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(Gpu, HandlesAndTheRawStream) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int id = -1;
  ASSERT_RT_OK(infinictsRefStreamDevice(stream, &type, &id));
  EXPECT_EQ(type, INFINI_DEVICE_NVIDIA);
  EXPECT_EQ(id, 0);
  void *raw = nullptr;
  ASSERT_RT_OK(infinictsRefCudaStream(stream, &raw));
  EXPECT_NE(raw, nullptr);
  EXPECT_EQ(cudaStreamQuery(static_cast<cudaStream_t>(raw)), cudaSuccess);
  ASSERT_RT_OK(infinictsRefCudaStream(nullptr, &raw));
  EXPECT_EQ(static_cast<cudaStream_t>(raw), cudaStreamLegacy);
  EXPECT_EQ(infinirtStreamDestroy(nullptr), INFINI_STATUS_BAD_PARAM);
  int ran = 0;
  ASSERT_RT_OK(infinictsRefStreamEnqueue(stream, [](void *arg) { *static_cast<int *>(arg) += 1; }, &ran));
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(ran, 1);
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
  EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_BAD_PARAM);
}

}  // namespace
}  // namespace reference_cuda_test
