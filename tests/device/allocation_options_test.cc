// AllocationOptions: the pinned device may be set once; the NUMA node is validated.
#include <gtest/gtest.h>

#include "device/device.h"

namespace infinicts::device {
namespace {

const DeviceId kGpu0{INFINI_DEVICE_NVIDIA, 0};
const DeviceId kGpu1{INFINI_DEVICE_NVIDIA, 1};

TEST(AllocationOptionsTest, StartsWithoutPinnedDeviceOrNumaNode) {
  AllocationOptions options;
  EXPECT_FALSE(options.HasPinnedDevice());
  EXPECT_FALSE(options.pinned_device().has_value());
  EXPECT_FALSE(options.numa_node().has_value());
}

TEST(AllocationOptionsTest, PinnedDeviceIsSetOnce) {
  AllocationOptions options;
  options.SetPinnedDevice(kGpu1);
  ASSERT_TRUE(options.HasPinnedDevice());
  EXPECT_EQ(kGpu1, *options.pinned_device());
  EXPECT_NO_THROW(options.SetPinnedDevice(kGpu1));
  EXPECT_THROW(options.SetPinnedDevice(kGpu0), std::logic_error);
  EXPECT_THROW(options.SetPinnedDevice(DeviceId{INFINI_DEVICE_CPU, 1}), std::logic_error);
  EXPECT_EQ(kGpu1, *options.pinned_device());
}

TEST(AllocationOptionsTest, ClearingAllowsANewPinnedDevice) {
  AllocationOptions options;
  options.SetPinnedDevice(kGpu1);
  options.ClearPinnedDevice();
  EXPECT_FALSE(options.HasPinnedDevice());
  options.SetPinnedDevice(kGpu0);
  EXPECT_EQ(kGpu0, *options.pinned_device());
}

TEST(AllocationOptionsTest, NumaNodeIsValidatedAndClearable) {
  AllocationOptions options;
  options.SetNumaNode(1);
  EXPECT_EQ(1, options.numa_node());
  options.SetNumaNode(0);
  EXPECT_EQ(0, options.numa_node());
  EXPECT_THROW(options.SetNumaNode(-1), std::invalid_argument);
  EXPECT_EQ(0, options.numa_node());
  options.ClearNumaNode();
  EXPECT_FALSE(options.numa_node().has_value());
}

TEST(DeviceIdTest, PrintsTypeNameAndIndex) {
  EXPECT_EQ("nvidia:1", ToString(kGpu1));
  EXPECT_EQ("cpu:0", ToString(DeviceId{}));
}

TEST(DeviceErrorTest, CarriesStatusCallAndDetail) {
  DeviceError plain("infinirtMalloc", INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(INFINI_STATUS_BAD_PARAM, plain.status());
  EXPECT_STREQ("infinirtMalloc answered INFINI_STATUS_BAD_PARAM", plain.what());
  EXPECT_EQ("infinirtMalloc", plain.call());
  DeviceError detailed("infinirtMalloc", INFINI_STATUS_INTERNAL_ERROR, "(NULL for 8 bytes)");
  EXPECT_STREQ("infinirtMalloc answered INFINI_STATUS_INTERNAL_ERROR (NULL for 8 bytes)", detailed.what());
}

}  // namespace
}  // namespace infinicts::device
