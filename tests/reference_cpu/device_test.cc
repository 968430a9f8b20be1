// Devices: counts, the per-thread current device, memory info.
#include <cstdlib>
#include <string>
#include <thread>

#include "test_support.h"

namespace reference_cpu_test {
namespace {

using DeviceTest = RtTest;

int ExpectedCpuDevices() {
  const char *text = std::getenv("INFINICTS_CPU_DEVICES");
  return text == nullptr ? 2 : std::stoi(text);
}

TEST_F(DeviceTest, CountsFollowTheEnvironmentAndAgree) {
  int all[INFINI_DEVICE_TYPE_COUNT];
  ASSERT_RT_OK(infinirtGetAllDeviceCount(all));
  EXPECT_EQ(all[INFINI_DEVICE_CPU], ExpectedCpuDevices());
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    int count = -1;
    ASSERT_RT_OK(infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), &count));
    EXPECT_EQ(count, all[type]) << "type " << type;
    if (type != INFINI_DEVICE_CPU) {
      EXPECT_EQ(count, 0) << "type " << type;
    }
  }
  int count = 7;
  EXPECT_EQ(infinirtGetDeviceCount(INFINI_DEVICE_TYPE_COUNT, &count), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(count, 0);
  EXPECT_EQ(infinirtGetDeviceCount(static_cast<infiniDevice_t>(-1), &count), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtGetDeviceCount(INFINI_DEVICE_CPU, nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtGetAllDeviceCount(nullptr), INFINI_STATUS_NULL_POINTER);
}

TEST_F(DeviceTest, FailedSetDeviceLeavesTheCurrentDevice) {
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_TYPE_COUNT, 0), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, -1), INFINI_STATUS_DEVICE_NOT_FOUND);
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, ExpectedCpuDevices()), INFINI_STATUS_DEVICE_NOT_FOUND);
  infiniDevice_t type = INFINI_DEVICE_NVIDIA;
  int id = -1;
  ASSERT_RT_OK(infinirtGetDevice(&type, &id));
  EXPECT_EQ(type, INFINI_DEVICE_CPU);
  EXPECT_EQ(id, 1);
  EXPECT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  EXPECT_EQ(infinirtGetDevice(nullptr, nullptr), INFINI_STATUS_NULL_POINTER);
  // Either alone may be NULL; the other is filled.
  id = -1;
  EXPECT_RT_OK(infinirtGetDevice(nullptr, &id));
  EXPECT_EQ(id, 1);
  type = INFINI_DEVICE_NVIDIA;
  EXPECT_RT_OK(infinirtGetDevice(&type, nullptr));
  EXPECT_EQ(type, INFINI_DEVICE_CPU);
}

TEST_F(DeviceTest, CurrentDeviceIsPerThread) {
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  infiniDevice_t other_type = INFINI_DEVICE_NVIDIA;
  int other_id = -1;
  int other_after_set = -1;
  std::thread other([&] {
    infinirtGetDevice(&other_type, &other_id);
    infinirtSetDevice(INFINI_DEVICE_CPU, 2);
    infiniDevice_t ignored;
    infinirtGetDevice(&ignored, &other_after_set);
  });
  other.join();
  EXPECT_EQ(other_type, INFINI_DEVICE_CPU);
  EXPECT_EQ(other_id, 0);
  EXPECT_EQ(other_after_set, 2);
  infiniDevice_t type;
  int id = -1;
  ASSERT_RT_OK(infinirtGetDevice(&type, &id));
  EXPECT_EQ(id, 1);
}

TEST_F(DeviceTest, MemInfoTracksAllocations) {
  size_t free_before = 0, total = 0;
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_CPU, 0, &free_before, &total));
  EXPECT_GT(total, 0u);
  EXPECT_LE(free_before, total);
  const size_t bytes = size_t{64} << 20;
  void *p = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&p, bytes));
  size_t free_during = 0, free_other = 0;
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_CPU, 0, &free_during, &total));
  EXPECT_LE(free_during + bytes, free_before);
  // Another device's memory is its own.
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_CPU, 1, &free_other, &total));
  EXPECT_EQ(free_other, total);
  ASSERT_RT_OK(infinirtFree(p));
  size_t free_after = 0;
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_CPU, 0, &free_after, &total));
  EXPECT_EQ(free_after, free_before);

  EXPECT_EQ(infinirtGetMemInfo(INFINI_DEVICE_CPU, 0, nullptr, &total), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtGetMemInfo(INFINI_DEVICE_NVIDIA, 0, &free_after, &total),
            INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(infinirtGetMemInfo(INFINI_DEVICE_CPU, 99, &free_after, &total), INFINI_STATUS_DEVICE_NOT_FOUND);
}

}  // namespace
}  // namespace reference_cpu_test
