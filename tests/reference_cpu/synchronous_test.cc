// The CPU runtime's synchronous mode (INFINICTS_CPU_SYNC=1, set by the ctest that runs these):
// every stream's work has run when the call that enqueues it returns, on the caller's thread,
// with the stream's device current inside it and the caller's back afterwards.
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace reference_cpu_test {
namespace {

class SynchronousModeTest : public RtTest {
 protected:
  void SetUp() override {
    const char *mode = std::getenv("INFINICTS_CPU_SYNC");
    if (mode == nullptr || std::string(mode) != "1") GTEST_SKIP() << "runs with INFINICTS_CPU_SYNC=1 (its own ctest)";
    RtTest::SetUp();
  }
};

TEST_F(SynchronousModeTest, WorkIsDoneWhenTheCallReturns) {
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  void *device = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 4096));
  std::vector<unsigned char> host(4096, 0);
  ASSERT_RT_OK(infinirtMemsetAsync(device, 0x5A, 4096, stream));
  ASSERT_RT_OK(infinirtMemcpyAsync(host.data(), device, 4096, INFINIRT_MEMCPY_D2H, stream));
  // No synchronize: a caller written for a synchronous CPU backend reads at once.
  EXPECT_EQ(host[0], 0x5A);
  EXPECT_EQ(host[4095], 0x5A);
  std::thread::id ran_on;
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&ran_on] { ran_on = std::this_thread::get_id(); }));
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  infinirtEvent_t event = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&event));
  ASSERT_RT_OK(infinirtEventRecord(event, stream));
  infinirtEventStatus_t state = INFINIRT_EVENT_NOT_READY;
  ASSERT_RT_OK(infinirtEventQuery(event, &state));
  EXPECT_EQ(state, INFINIRT_EVENT_COMPLETE);
  ASSERT_RT_OK(infinirtEventDestroy(event));
  ASSERT_RT_OK(infinirtFree(device));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(SynchronousModeTest, WorkRunsOnItsStreamsDeviceAndTheCallersComesBack) {
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));  // a stream of device 1
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  int inside = -1;
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&inside] {
    infiniDevice_t type;
    infinirtGetDevice(&type, &inside);
  }));
  EXPECT_EQ(inside, 1);
  infiniDevice_t type = INFINI_DEVICE_NVIDIA;
  int id = -1;
  ASSERT_RT_OK(infinirtGetDevice(&type, &id));
  EXPECT_EQ(id, 0) << "the caller's device after its stream's work";
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(SynchronousModeTest, WorkMayEnqueueOnItsOwnStream) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  std::vector<int> order;
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&] {
    order.push_back(1);
    infinicts_ref::EnqueueOnStream(stream, [&] { order.push_back(2); });
    order.push_back(3);
  }));
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

}  // namespace
}  // namespace reference_cpu_test
