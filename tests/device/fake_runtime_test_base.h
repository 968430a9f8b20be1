// The fixture every device-layer test starts from: a fresh fake runtime and its table.
#pragma once

#include <gtest/gtest.h>

#include "fake_runtime.h"

namespace infinicts::device::testing {

class FakeRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override { ResetFake(); }
  void TearDown() override { ResetFake(); }

  // Forces `call` to answer `status` without doing its work.
  void Force(const std::string &call, infiniStatus_t status) { Fake().forced_status[call] = status; }
  void Unforce(const std::string &call) { Fake().forced_status.erase(call); }
  int Calls(const std::string &call) { return Fake().Calls(call); }

  RtApi rt_ = FakeRtApi();
  const DeviceId cpu0_{INFINI_DEVICE_CPU, 0};
  const DeviceId cpu1_{INFINI_DEVICE_CPU, 1};
  const DeviceId gpu0_{INFINI_DEVICE_NVIDIA, 0};
  const DeviceId gpu1_{INFINI_DEVICE_NVIDIA, 1};
  const DeviceId gpu2_{INFINI_DEVICE_NVIDIA, 2};
};

}  // namespace infinicts::device::testing
