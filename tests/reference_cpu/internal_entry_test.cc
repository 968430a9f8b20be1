// The infinictsRef entry points for the sibling reference libraries.
#include <atomic>
#include <thread>

#include "test_support.h"

namespace reference_cpu_test {
namespace {

using InternalEntryTest = RtTest;

TEST_F(InternalEntryTest, StreamDeviceIsTheCurrentDeviceAtCreation) {
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  infiniDevice_t type = INFINI_DEVICE_NVIDIA;
  int id = -1;
  ASSERT_RT_OK(infinictsRefStreamDevice(stream, &type, &id));
  EXPECT_EQ(type, INFINI_DEVICE_CPU);
  EXPECT_EQ(id, 1);
  ASSERT_RT_OK(infinictsRefStreamDevice(nullptr, &type, &id));
  EXPECT_EQ(id, 0) << "NULL is the current device's default stream";
  EXPECT_EQ(infinictsRefStreamDevice(stream, nullptr, &id), INFINI_STATUS_NULL_POINTER);
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
  EXPECT_EQ(infinictsRefStreamDevice(stream, &type, &id), INFINI_STATUS_BAD_PARAM);
}

TEST_F(InternalEntryTest, EnqueuedWorkRunsOnceOnTheWorker) {
  std::atomic<int> runs{0};
  std::thread::id ran_on;
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(nullptr, [&] {
    ++runs;
    ran_on = std::this_thread::get_id();
  }));
  ASSERT_RT_OK(infinirtStreamSynchronize(nullptr));
  EXPECT_EQ(runs.load(), 1);
  EXPECT_NE(ran_on, std::this_thread::get_id());
  EXPECT_EQ(infinictsRefStreamEnqueue(nullptr, nullptr, nullptr), INFINI_STATUS_NULL_POINTER);
  int not_a_stream = 0;
  EXPECT_EQ(infinicts_ref::EnqueueOnStream(&not_a_stream, [&] { ++runs; }), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(runs.load(), 1);
}

TEST_F(InternalEntryTest, WorkRunsOnTheStreamsDevice) {
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  int inside = -1;
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&inside] {
    infiniDevice_t type;
    infinirtGetDevice(&type, &inside);
    infinirtSetDevice(INFINI_DEVICE_CPU, 2);  // must not leak into the next work
  }));
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(inside, 1);
  inside = -1;
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&inside] {
    infiniDevice_t type;
    infinirtGetDevice(&type, &inside);
  }));
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(inside, 1);
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(InternalEntryTest, WorkMayNotSynchronizeItsOwnStream) {
  infiniStatus_t inside = INFINI_STATUS_SUCCESS;
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(nullptr, [&] { inside = infinirtStreamSynchronize(nullptr); }));
  ASSERT_RT_OK(infinirtStreamSynchronize(nullptr));
  EXPECT_EQ(inside, INFINI_STATUS_BAD_PARAM);
}

TEST_F(InternalEntryTest, PointerDevice) {
  void *device = nullptr, *pinned = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 1000));
  ASSERT_RT_OK(infinirtMallocHost(&pinned, 1000));
  infiniDevice_t type;
  int id = -1;
  ASSERT_RT_OK(infinictsRefPointerDevice(static_cast<char *>(device) + 10, 990, &type, &id));
  EXPECT_EQ(type, INFINI_DEVICE_CPU);
  EXPECT_EQ(id, 0);
  EXPECT_EQ(infinictsRefPointerDevice(device, 1001, &type, &id), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinictsRefPointerDevice(pinned, 1, &type, &id), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinictsRefPointerDevice(nullptr, 1, &type, &id), INFINI_STATUS_NULL_POINTER);
  ASSERT_RT_OK(infinirtFree(device));
  ASSERT_RT_OK(infinirtFreeHost(pinned));
}

}  // namespace
}  // namespace reference_cpu_test
