// Memory: allocation rules, the registry's error statuses, copies and fills, and the
// stream-ordered MallocAsync / FreeAsync.
#include <cstdint>
#include <cstring>
#include <vector>

#include "test_support.h"

namespace reference_cpu_test {
namespace {

using MemoryTest = RtTest;

size_t FreeBytes(int device) {
  size_t free_bytes = 0, total = 0;
  EXPECT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_CPU, device, &free_bytes, &total));
  return free_bytes;
}

TEST_F(MemoryTest, MallocRules) {
  EXPECT_EQ(infinirtMalloc(nullptr, 16), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtMallocHost(nullptr, 16), INFINI_STATUS_NULL_POINTER);
  void *zero = reinterpret_cast<void *>(1);
  ASSERT_RT_OK(infinirtMalloc(&zero, 0));
  EXPECT_RT_OK(infinirtFree(zero));
  for (size_t bytes : {size_t{1}, size_t{300}, size_t{1} << 22}) {
    void *p = nullptr;
    ASSERT_RT_OK(infinirtMalloc(&p, bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
    std::memset(p, 0xAB, bytes);  // every byte is usable
    ASSERT_RT_OK(infinirtFree(p));
  }
  size_t free_bytes = 0, total = 0;
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_CPU, 0, &free_bytes, &total));
  void *too_big = nullptr;
  EXPECT_EQ(infinirtMalloc(&too_big, free_bytes + 1), INFINI_STATUS_INTERNAL_ERROR);
  EXPECT_EQ(too_big, nullptr);
  EXPECT_EQ(infinirtMalloc(&too_big, SIZE_MAX), INFINI_STATUS_INTERNAL_ERROR);
}

TEST_F(MemoryTest, FreeRejectsWhatIsNotALiveAllocationStart) {
  void *device = nullptr, *host = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 1024));
  ASSERT_RT_OK(infinirtMallocHost(&host, 1024));
  int stack_value = 0;
  EXPECT_RT_OK(infinirtFree(nullptr));
  EXPECT_EQ(infinirtFree(&stack_value), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtFree(static_cast<char *>(device) + 8), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtFree(host), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtFreeHost(device), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtFreeHost(static_cast<char *>(host) + 1), INFINI_STATUS_BAD_PARAM);
  ASSERT_RT_OK(infinirtFree(device));
  EXPECT_EQ(infinirtFree(device), INFINI_STATUS_BAD_PARAM) << "double free";
  ASSERT_RT_OK(infinirtFreeHost(host));
  EXPECT_EQ(infinirtFreeHost(host), INFINI_STATUS_BAD_PARAM) << "double free";
  EXPECT_RT_OK(infinirtFreeHost(nullptr));
}

TEST_F(MemoryTest, CopiesMoveBytesWhereTheKindSays) {
  constexpr size_t kBytes = 1 << 20;
  void *a = nullptr, *b = nullptr, *pinned = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&a, kBytes));
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  ASSERT_RT_OK(infinirtMalloc(&b, kBytes));  // a peer copy target on device 1
  ASSERT_RT_OK(infinirtMallocHost(&pinned, kBytes));
  std::vector<uint8_t> source(kBytes), result(kBytes, 0);
  for (size_t i = 0; i < kBytes; ++i) source[i] = static_cast<uint8_t>(i * 7 + 3);

  ASSERT_RT_OK(infinirtMemcpy(a, source.data(), kBytes, INFINIRT_MEMCPY_H2D));
  ASSERT_RT_OK(infinirtMemcpy(b, a, kBytes, INFINIRT_MEMCPY_D2D));
  ASSERT_RT_OK(infinirtMemcpy(pinned, b, kBytes, INFINIRT_MEMCPY_D2H));
  ASSERT_RT_OK(infinirtMemcpy(result.data(), pinned, kBytes, INFINIRT_MEMCPY_H2H));
  EXPECT_EQ(result, source);

  ASSERT_RT_OK(infinirtMemset(a, 0x1FF, kBytes / 2));  // only the low byte counts
  ASSERT_RT_OK(infinirtMemcpy(result.data(), a, kBytes, INFINIRT_MEMCPY_D2H));
  EXPECT_EQ(result[0], 0xFF);
  EXPECT_EQ(result[kBytes / 2 - 1], 0xFF);
  EXPECT_EQ(result[kBytes / 2], source[kBytes / 2]);

  ASSERT_RT_OK(infinirtFree(a));
  ASSERT_RT_OK(infinirtFree(b));
  ASSERT_RT_OK(infinirtFreeHost(pinned));
}

TEST_F(MemoryTest, CopiesAndFillsCheckWhereTheirPointersLive) {
  void *device = nullptr, *pinned = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 512));
  ASSERT_RT_OK(infinirtMallocHost(&pinned, 512));
  std::vector<uint8_t> host(1024);
  char *d = static_cast<char *>(device);

  EXPECT_RT_OK(infinirtMemcpy(nullptr, nullptr, 0, INFINIRT_MEMCPY_H2D));
  EXPECT_EQ(infinirtMemcpy(nullptr, host.data(), 8, INFINIRT_MEMCPY_H2D), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtMemcpy(d, host.data(), 8, static_cast<infinirtMemcpyKind_t>(4)), INFINI_STATUS_BAD_PARAM);
  // The kind contradicts where the pointers live.
  EXPECT_EQ(infinirtMemcpy(host.data(), d, 8, INFINIRT_MEMCPY_H2D), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtMemcpy(d, host.data(), 8, INFINIRT_MEMCPY_D2H), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtMemcpy(d, d + 256, 8, INFINIRT_MEMCPY_H2H), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtMemcpy(d, pinned, 8, INFINIRT_MEMCPY_D2D), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtMemcpy(pinned, d, 8, INFINIRT_MEMCPY_H2D), INFINI_STATUS_BAD_PARAM);
  // The device side must fit inside its allocation; the host side must not touch device memory.
  EXPECT_EQ(infinirtMemcpy(d + 256, host.data(), 257, INFINIRT_MEMCPY_H2D), INFINI_STATUS_BAD_PARAM);
  EXPECT_RT_OK(infinirtMemcpy(d + 256, host.data(), 256, INFINIRT_MEMCPY_H2D));
  EXPECT_EQ(infinirtMemcpyAsync(d, host.data(), 513, INFINIRT_MEMCPY_H2D, nullptr), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtMemset(d + 1, 0, 512), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtMemset(host.data(), 0, 8), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtMemset(nullptr, 0, 8), INFINI_STATUS_NULL_POINTER);
  EXPECT_RT_OK(infinirtMemset(nullptr, 0, 0));
  EXPECT_EQ(infinirtMemsetAsync(pinned, 0, 8, nullptr), INFINI_STATUS_BAD_PARAM);

  ASSERT_RT_OK(infinirtFree(device));
  EXPECT_EQ(infinirtMemcpy(host.data(), d, 8, INFINIRT_MEMCPY_D2H), INFINI_STATUS_BAD_PARAM) << "freed memory";
  ASSERT_RT_OK(infinirtFreeHost(pinned));
}

TEST_F(MemoryTest, FreeAsyncReleasesWhenTheStreamGetsThere) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  const size_t before = FreeBytes(0);
  constexpr size_t kBytes = 8 << 20;
  void *p = nullptr;
  ASSERT_RT_OK(infinirtMallocAsync(&p, kBytes, stream));
  ASSERT_NE(p, nullptr);
  ASSERT_RT_OK(infinirtMemsetAsync(p, 9, kBytes, stream));

  Gate gate;
  ASSERT_RT_OK(gate.Block(stream));
  ASSERT_RT_OK(infinirtFreeAsync(p, stream));
  EXPECT_EQ(infinirtFree(p), INFINI_STATUS_BAD_PARAM) << "p is no longer live once FreeAsync is called";
  EXPECT_EQ(infinirtFreeAsync(p, stream), INFINI_STATUS_BAD_PARAM);
  EXPECT_LE(FreeBytes(0) + kBytes, before) << "released before the stream reached FreeAsync";
  gate.Open();
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(FreeBytes(0), before);

  EXPECT_EQ(infinirtMallocAsync(nullptr, 8, stream), INFINI_STATUS_NULL_POINTER);
  void *zero = reinterpret_cast<void *>(1);
  ASSERT_RT_OK(infinirtMallocAsync(&zero, 0, stream));
  EXPECT_RT_OK(infinirtFreeAsync(zero, stream));
  EXPECT_RT_OK(infinirtFreeAsync(nullptr, stream));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(MemoryTest, MallocAsyncAllocatesOnTheStreamsDevice) {
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  void *p = nullptr;
  ASSERT_RT_OK(infinirtMallocAsync(&p, 4096, stream));
  infiniDevice_t type;
  int id = -1;
  ASSERT_RT_OK(infinictsRefPointerDevice(p, 4096, &type, &id));
  EXPECT_EQ(id, 1);
  ASSERT_RT_OK(infinirtFreeAsync(p, stream));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

}  // namespace
}  // namespace reference_cpu_test
