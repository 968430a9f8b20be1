// The PyTorch-style guard primitives and ActiveDeviceGuard over the fake runtime.
#include <stdexcept>
#include <string>
#include <utility>

#include "fake_runtime_test_base.h"

namespace infinicts::device::testing {
namespace {

using GuardTest = FakeRuntimeTest;

TEST_F(GuardTest, GetCurrentDeviceReadsTheBackend) {
  ASSERT_EQ(INFINI_STATUS_SUCCESS, rt_.infinirtSetDevice(INFINI_DEVICE_NVIDIA, 2));
  EXPECT_EQ(gpu2_, GetCurrentDevice(rt_));
}

TEST_F(GuardTest, GetCurrentDeviceThrowsTheBackendStatusAndCallName) {
  Force("infinirtGetDevice", INFINI_STATUS_DEVICE_NOT_INITIALIZED);
  try {
    GetCurrentDevice(rt_);
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_DEVICE_NOT_INITIALIZED, error.status());
    EXPECT_NE(std::string::npos, std::string(error.what()).find("infinirtGetDevice"));
    EXPECT_NE(std::string::npos, std::string(error.what()).find("INFINI_STATUS_DEVICE_NOT_INITIALIZED"));
  }
}

TEST_F(GuardTest, DeviceCountAnswersTheBackendCount) {
  EXPECT_EQ(2, GetDeviceCount(rt_, INFINI_DEVICE_CPU));
  EXPECT_EQ(3, GetDeviceCount(rt_, INFINI_DEVICE_NVIDIA));
  EXPECT_EQ(0, GetDeviceCount(rt_, INFINI_DEVICE_ASCEND));
}

TEST_F(GuardTest, DeviceCountNeverThrowsAndIsZeroOnAnyFailure) {
  static_assert(noexcept(GetDeviceCount(std::declval<const RtApi &>(), INFINI_DEVICE_CPU)));
  // The fake fills the real count before answering the error: the status must decide.
  Force("infinirtGetDeviceCount", INFINI_STATUS_INTERNAL_ERROR);
  EXPECT_EQ(0, GetDeviceCount(rt_, INFINI_DEVICE_NVIDIA));
  Unforce("infinirtGetDeviceCount");
  EXPECT_EQ(0, GetDeviceCount(rt_, static_cast<infiniDevice_t>(INFINI_DEVICE_TYPE_COUNT)));
  EXPECT_EQ(0, GetDeviceCount(rt_, static_cast<infiniDevice_t>(-1)));
  Fake().device_count[INFINI_DEVICE_NVIDIA] = -4;
  EXPECT_EQ(0, GetDeviceCount(rt_, INFINI_DEVICE_NVIDIA));
  RtApi without_count = rt_;
  without_count.infinirtGetDeviceCount = nullptr;
  EXPECT_EQ(0, GetDeviceCount(without_count, INFINI_DEVICE_CPU));
}

TEST_F(GuardTest, ExchangeDeviceReturnsThePreviousDevice) {
  EXPECT_EQ(cpu0_, ExchangeDevice(rt_, gpu1_));
  EXPECT_EQ(gpu1_, FakeCurrentDevice());
  EXPECT_EQ(gpu1_, ExchangeDevice(rt_, cpu1_));
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
  EXPECT_EQ(2, Calls("infinirtSetDevice"));
}

TEST_F(GuardTest, SettingTheCurrentDeviceAgainDoesNotCallTheBackend) {
  EXPECT_EQ(cpu0_, ExchangeDevice(rt_, cpu0_));
  ExchangeDevice(rt_, gpu1_);
  EXPECT_EQ(gpu1_, ExchangeDevice(rt_, gpu1_));
  EXPECT_EQ(INFINI_STATUS_SUCCESS, UncheckedSetDevice(rt_, gpu1_));
  EXPECT_EQ(1, Calls("infinirtSetDevice"));
  EXPECT_EQ(gpu1_, FakeCurrentDevice());
}

TEST_F(GuardTest, FailedExchangeThrowsAndLeavesTheDevice) {
  ExchangeDevice(rt_, gpu1_);
  try {
    ExchangeDevice(rt_, DeviceId{INFINI_DEVICE_NVIDIA, 5});
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_DEVICE_NOT_FOUND, error.status());
    EXPECT_NE(std::string::npos, std::string(error.what()).find("infinirtSetDevice(nvidia:5)"));
  }
  EXPECT_EQ(gpu1_, FakeCurrentDevice());
}

TEST_F(GuardTest, UncheckedSetDeviceIsNoexceptAndAnswersTheStatus) {
  static_assert(noexcept(UncheckedSetDevice(std::declval<const RtApi &>(), DeviceId{})));
  EXPECT_EQ(INFINI_STATUS_SUCCESS, UncheckedSetDevice(rt_, gpu2_));
  EXPECT_EQ(gpu2_, FakeCurrentDevice());
  EXPECT_EQ(INFINI_STATUS_DEVICE_NOT_FOUND, UncheckedSetDevice(rt_, DeviceId{INFINI_DEVICE_CPU, 7}));
  EXPECT_EQ(INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED, UncheckedSetDevice(rt_, DeviceId{INFINI_DEVICE_KUNLUN, 0}));
  Force("infinirtSetDevice", INFINI_STATUS_INTERNAL_ERROR);
  EXPECT_EQ(INFINI_STATUS_INTERNAL_ERROR, UncheckedSetDevice(rt_, cpu1_));
  EXPECT_EQ(gpu2_, FakeCurrentDevice());
}

TEST_F(GuardTest, UncheckedSetDeviceStillSetsWhenTheCurrentDeviceCannotBeRead) {
  Force("infinirtGetDevice", INFINI_STATUS_INTERNAL_ERROR);
  EXPECT_EQ(INFINI_STATUS_SUCCESS, UncheckedSetDevice(rt_, gpu1_));
  EXPECT_EQ(gpu1_, FakeCurrentDevice());
}

TEST_F(GuardTest, GuardSetsAndRestoresOnNormalExit) {
  {
    ActiveDeviceGuard guard(rt_, gpu1_);
    EXPECT_EQ(gpu1_, FakeCurrentDevice());
    EXPECT_EQ(cpu0_, guard.previous());
    EXPECT_EQ(gpu1_, guard.device());
  }
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
  EXPECT_EQ(2, Calls("infinirtSetDevice"));
}

TEST_F(GuardTest, GuardRestoresWhenTheScopeThrows) {
  ExchangeDevice(rt_, cpu1_);
  EXPECT_THROW(
      {
        ActiveDeviceGuard guard(rt_, gpu2_);
        EXPECT_EQ(gpu2_, FakeCurrentDevice());
        throw std::runtime_error("work failed");
      },
      std::runtime_error);
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(GuardTest, NestedGuardsRestoreStepByStep) {
  {
    ActiveDeviceGuard outer(rt_, gpu0_);
    {
      ActiveDeviceGuard middle(rt_, gpu2_);
      {
        ActiveDeviceGuard inner(rt_, cpu1_);
        EXPECT_EQ(cpu1_, FakeCurrentDevice());
        EXPECT_EQ(gpu2_, inner.previous());
      }
      EXPECT_EQ(gpu2_, FakeCurrentDevice());
      EXPECT_EQ(gpu0_, middle.previous());
    }
    EXPECT_EQ(gpu0_, FakeCurrentDevice());
  }
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
}

TEST_F(GuardTest, GuardOnTheCurrentDeviceNeverCallsSetDevice) {
  {
    ActiveDeviceGuard guard(rt_, cpu0_);
    EXPECT_EQ(cpu0_, guard.previous());
  }
  EXPECT_EQ(0, Calls("infinirtSetDevice"));
}

TEST_F(GuardTest, GuardRestoresEvenAfterTheScopeMovedElsewhere) {
  {
    ActiveDeviceGuard guard(rt_, gpu0_);
    ExchangeDevice(rt_, gpu2_);
  }
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
}

TEST_F(GuardTest, FailedSetInTheConstructorThrowsAndChangesNothing) {
  ExchangeDevice(rt_, gpu1_);
  const int sets_before = Calls("infinirtSetDevice");
  try {
    ActiveDeviceGuard guard(rt_, DeviceId{INFINI_DEVICE_NVIDIA, 3});
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_DEVICE_NOT_FOUND, error.status());
    EXPECT_NE(std::string::npos, std::string(error.what()).find("infinirtSetDevice"));
  }
  EXPECT_EQ(gpu1_, FakeCurrentDevice());
  // The failed set only: no restore follows a constructor that threw.
  EXPECT_EQ(sets_before + 1, Calls("infinirtSetDevice"));
}

TEST_F(GuardTest, ForcedSetFailureInTheConstructorKeepsTheStatus) {
  Force("infinirtSetDevice", INFINI_STATUS_DEVICE_NOT_INITIALIZED);
  try {
    ActiveDeviceGuard guard(rt_, gpu0_);
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_DEVICE_NOT_INITIALIZED, error.status());
  }
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
}

TEST_F(GuardTest, UnreadableCurrentDeviceFailsTheGuardBeforeAnySet) {
  Force("infinirtGetDevice", INFINI_STATUS_INTERNAL_ERROR);
  EXPECT_THROW({ ActiveDeviceGuard guard(rt_, gpu0_); }, DeviceError);
  EXPECT_EQ(0, Calls("infinirtSetDevice"));
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
}

TEST_F(GuardTest, FailedRestoreDoesNotThrowFromTheDestructor) {
  {
    ActiveDeviceGuard guard(rt_, gpu0_);
    Force("infinirtSetDevice", INFINI_STATUS_INTERNAL_ERROR);
  }
  EXPECT_EQ(gpu0_, FakeCurrentDevice());
}

TEST_F(GuardTest, SynchronizeDeviceRunsOnThatDeviceAndRestores) {
  SynchronizeDevice(rt_, gpu2_);
  EXPECT_EQ(1, Calls("infinirtDeviceSynchronize"));
  EXPECT_EQ(gpu2_, Fake().DeviceAtLastCall("infinirtDeviceSynchronize"));
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
}

TEST_F(GuardTest, SynchronizeDeviceFailureThrowsAndRestores) {
  Force("infinirtDeviceSynchronize", INFINI_STATUS_INTERNAL_ERROR);
  try {
    SynchronizeDevice(rt_, gpu1_);
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_INTERNAL_ERROR, error.status());
    EXPECT_NE(std::string::npos, std::string(error.what()).find("infinirtDeviceSynchronize"));
  }
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
}

}  // namespace
}  // namespace infinicts::device::testing
