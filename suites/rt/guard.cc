// Subject `guard`: PyTorch's device-guard semantics, exercised through the harness
// device layer (harness/device) over the backend's current device (spec section
// RT-GUARD, minimal level). A guard is only as good as SetDevice/GetDevice/
// DeviceSynchronize underneath it: these cases fail when the backend breaks it.
#include <future>
#include <stdexcept>
#include <thread>

#include "cts/case.h"
#include "device/device.h"
#include "rt_chain.h"
#include "rt_data.h"
#include "rt_params.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;
using device::ActiveDeviceGuard;
using device::DeviceError;
using device::DeviceId;

// Runs a device-layer statement; a DeviceError ends the case as the failed call it reports
// would (unsupported, blocked, or failed with the layer's message).
#define GUARD_CALL(statement)                                                                  \
  try {                                                                                        \
    statement;                                                                                 \
  } catch (const DeviceError &error) {                                                         \
    CTS_END_FOR_CALL(error.call(), error.status(), error.what());                              \
  }

class GuardCase : public cts::CaseBase {};
class GuardOnPick : public cts::ParamCase<DeviceParam> {
 protected:
  // The picked device is the guard's target; the case starts on the other one, so
  // "previous" and "target" differ whenever the run has two devices.
  DeviceId Target() const { return {cts::device_type(), PickedId(GetParam().pick)}; }
  DeviceId Start() const {
    const auto &ids = cts::device_ids();
    return {cts::device_type(), Target().index == ids.front() ? ids.back() : ids.front()};
  }
};

std::string Show(DeviceId id) { return DeviceTypeName(id.type) + ":" + std::to_string(id.index); }

testing::AssertionResult IsCurrent(DeviceId expected) {
  DeviceId current{INFINI_DEVICE_TYPE_COUNT, -1};
  const infiniStatus_t status = rt().infinirtGetDevice(&current.type, &current.index);
  if (status != INFINI_STATUS_SUCCESS)
    return testing::AssertionFailure() << "infinirtGetDevice answered " << StatusName(status);
  if (current != expected)
    return testing::AssertionFailure() << "current device " << Show(current) << ", expected " << Show(expected);
  return testing::AssertionSuccess();
}

CTS_TEST_P(GuardOnPick, exchange_returns_previous, "guard", "RT-GUARD-1") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(Start().type, Start().index));
  DeviceId previous{};
  GUARD_CALL(previous = device::ExchangeDevice(rt(), Target()));
  EXPECT_EQ(Show(previous), Show(Start()));
  EXPECT_TRUE(IsCurrent(Target()));
  GUARD_CALL(previous = device::ExchangeDevice(rt(), Start()));
  EXPECT_EQ(Show(previous), Show(Target()));
  EXPECT_TRUE(IsCurrent(Start()));
}

CTS_TEST_P(GuardOnPick, exchange_to_current_is_noop, "guard", "RT-GUARD-2", "RT-DEV-8") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(Target().type, Target().index));
  DeviceId previous{};
  GUARD_CALL(previous = device::ExchangeDevice(rt(), Target()));
  EXPECT_EQ(Show(previous), Show(Target()));
  EXPECT_TRUE(IsCurrent(Target()));
  // The unchecked form reaches the backend's SetDevice with the current device.
  CTS_ASSERT_OK(device::UncheckedSetDevice(rt(), Target()));
  CTS_ASSERT_OK(rt().infinirtSetDevice(Target().type, Target().index));
  EXPECT_TRUE(IsCurrent(Target()));
}

CTS_TEST_P(GuardOnPick, restores_on_scope_exit, "guard", "RT-GUARD-3") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(Start().type, Start().index));
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 1, 8191);
  void *inside = nullptr;
  GUARD_CALL({
    ActiveDeviceGuard guard(rt(), Target());
    EXPECT_EQ(Show(guard.previous()), Show(Start()));
    EXPECT_TRUE(IsCurrent(Target())) << "inside the guard";
    // Work inside the guard lands on the guarded device.
    RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&inside, bytes), inside, bytes);
  });
  EXPECT_TRUE(IsCurrent(Start())) << "after the guard's scope";
  CTS_ASSERT_OK(rt().infinirtSetDevice(Target().type, Target().index));
  CTS_ASSERT_OK(rt().infinirtFree(inside));
}

CTS_TEST_P(GuardOnPick, restores_on_exception, "guard", "RT-GUARD-3") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(Start().type, Start().index));
  bool caught = false;
  try {
    ActiveDeviceGuard guard(rt(), Target());
    EXPECT_TRUE(IsCurrent(Target())) << "inside the guard";
    throw std::runtime_error("leaving the guard's scope by an exception");
  } catch (const DeviceError &error) {
    if (cts::IsUnsupportedStatus(error.status())) GTEST_SKIP() << cts::kUnsupportedPrefix << error.what();
    FAIL() << error.what();
  } catch (const std::runtime_error &) {
    caught = true;
  }
  EXPECT_TRUE(caught);
  EXPECT_TRUE(IsCurrent(Start())) << "after an exception left the guard's scope";
}

// Restores a device from its destructor with the never-throwing set, and says what it saw.
struct RestoreInDestructor {
  DeviceId to;
  infiniStatus_t *status;
  bool *unwinding;
  ~RestoreInDestructor() {
    *unwinding = std::uncaught_exceptions() > 0;
    *status = device::UncheckedSetDevice(rt(), to);
  }
};

CTS_TEST_P(GuardOnPick, unchecked_set_during_unwind, "guard", "RT-GUARD-4") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(Start().type, Start().index));
  infiniStatus_t status = INFINI_STATUS_INTERNAL_ERROR;
  bool unwinding = false;
  try {
    RestoreInDestructor restore{Start(), &status, &unwinding};
    CTS_ASSERT_OK(rt().infinirtSetDevice(Target().type, Target().index));
    throw std::runtime_error("unwinding through RestoreInDestructor");
  } catch (const std::runtime_error &) {
  }
  EXPECT_TRUE(unwinding) << "the destructor did not run during unwinding";
  CTS_CHECK_OK(status);  // the destructor's infinirtSetDevice: what this case checks
  EXPECT_TRUE(IsCurrent(Start())) << "after the destructor's unchecked set";
}

CTS_TEST_P(GuardOnPick, synchronize_device_waits, "guard", "RT-GUARD-5", "RT-DEV-20") {
  auto rng = CaseRng();
  CTS_ASSERT_OK(rt().infinirtSetDevice(Target().type, Target().index));
  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
  ScopedStream stream(raw);
  PendingWork behind[2];  // long work before each chain's read-back (rt_pending.h)
  for (PendingWork &work : behind) {
    work.Prepare(kLargeBytes);
    if (HasFatalFailure() || IsSkipped()) return;
  }
  std::vector<std::unique_ptr<StreamChain>> chains;
  const infinirtStream_t targets[2] = {raw, nullptr};
  for (int i = 0; i < 2; ++i) {
    const uint64_t seed = rng();
    chains.push_back(std::make_unique<StreamChain>(seed, RandomOddIn(rng, 2 << 20, 4 << 20)));
    CTS_ASSERT_CHAIN_OK(*chains.back(), Enqueue(targets[i], 12, &behind[i]));
  }
  // Synchronise the target from the other device, as a guard-based caller would.
  CTS_ASSERT_OK(rt().infinirtSetDevice(Start().type, Start().index));
  GUARD_CALL(device::SynchronizeDevice(rt(), Target()));
  CTS_ASSERT_OK(rt().infinirtSetDevice(Target().type, Target().index));
  // Both chains' pinned results before any blocking read-back, which could wait by itself.
  EXPECT_TRUE(chains[0]->VerifyObserved()) << "work on a created stream of " << Show(Target());
  EXPECT_TRUE(chains[1]->VerifyObserved()) << "work on the NULL stream of " << Show(Target());
  EXPECT_TRUE(chains[0]->Verify()) << "work on a created stream of " << Show(Target());
  EXPECT_TRUE(chains[1]->Verify()) << "work on the NULL stream of " << Show(Target());
}

CTS_TEST_P(GuardOnPick, guard_to_bad_device_keeps_current, "guard", "RT-GUARD-6", "RT-DEV-11") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(Target().type, Target().index));
  int count = 0;
  CTS_ASSERT_OK(rt().infinirtGetDeviceCount(Target().type, &count));
  struct Bad {
    DeviceId id;
    infiniStatus_t expected;
  };
  for (const Bad &bad : {Bad{{Target().type, count}, INFINI_STATUS_DEVICE_NOT_FOUND},
                         Bad{{Target().type, -1}, INFINI_STATUS_DEVICE_NOT_FOUND},
                         Bad{{INFINI_DEVICE_TYPE_COUNT, 0}, INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED}}) {
    SCOPED_TRACE("guard on " + Show(bad.id));
    bool threw = false;
    try {
      ActiveDeviceGuard guard(rt(), bad.id);
    } catch (const DeviceError &error) {
      threw = true;
      EXPECT_EQ(StatusName(error.status()), StatusName(bad.expected));
    }
    EXPECT_TRUE(threw) << "a guard on a device that does not exist was built";
    EXPECT_TRUE(IsCurrent(Target()));
  }
}

CTS_TEST_P(GuardOnPick, manager_device_identity, "guard", "RT-DEV-16") {
  device::DeviceManager manager(rt(), cts::device_type());
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 4097, 65537);
  const std::vector<uint8_t> data = RandomBytes(rng, bytes);
  device::Device *first_lookup = nullptr;
  GUARD_CALL(first_lookup = &manager.GetDevice(Target().index));
  device::DeviceBuffer buffer;
  GUARD_CALL(buffer = first_lookup->Allocate(bytes));
  {
    ActiveDeviceGuard guard(rt(), Target());
    CTS_ASSERT_OK(rt().infinirtMemcpy(buffer.data(), data.data(), bytes, INFINIRT_MEMCPY_H2D));
  }
  GUARD_CALL(device::ExchangeDevice(rt(), Start()));
  device::Device *second_lookup = nullptr;
  GUARD_CALL(second_lookup = &manager.GetDevice(Target().index));
  EXPECT_EQ(first_lookup, second_lookup) << "GetDevice made a second object for index " << Target().index;
  std::vector<uint8_t> back = Complement(data);
  {
    ActiveDeviceGuard guard(rt(), Target());
    CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), buffer.data(), bytes, INFINIRT_MEMCPY_D2H));
  }
  EXPECT_TRUE(SameBytes(data.data(), back.data(), bytes));
}

CTS_TEST_F(GuardCase, nested_guards_restore_in_order, "conformance", "guard", "RT-GUARD-3") {
  const DeviceId first{cts::device_type(), cts::device_ids().front()};
  const DeviceId last{cts::device_type(), cts::device_ids().back()};
  GUARD_CALL({
    ActiveDeviceGuard outer(rt(), last);
    {
      ActiveDeviceGuard middle(rt(), first);
      {
        ActiveDeviceGuard inner(rt(), last);
        EXPECT_TRUE(IsCurrent(last)) << "in the inner guard";
      }
      EXPECT_TRUE(IsCurrent(first)) << "after the inner guard";
    }
    EXPECT_TRUE(IsCurrent(last)) << "after the middle guard";
  });
  EXPECT_TRUE(IsCurrent(first)) << "after the outer guard";
}

CTS_TEST_F(GuardCase, guard_on_other_thread, "conformance", "guard", "RT-GUARD-3", "RT-DEV-13") {
  const auto &ids = cts::device_ids();
  if (ids.size() < 2) GTEST_SKIP() << "needs two devices; the run has one";
  const DeviceId first{cts::device_type(), ids.front()};
  const DeviceId last{cts::device_type(), ids.back()};
  std::promise<std::string> guard_built;
  std::promise<void> main_checked;
  std::promise<testing::AssertionResult> worker_after_guard;
  std::thread worker([&] {
    // A thread starts wherever the backend puts it; it begins on the first device here.
    if (const infiniStatus_t status = rt().infinirtSetDevice(first.type, first.index)) {
      guard_built.set_value("infinirtSetDevice answered " + StatusName(status));
      worker_after_guard.set_value(testing::AssertionFailure() << "no guard was built");
      return;
    }
    try {
      ActiveDeviceGuard guard(rt(), last);
      guard_built.set_value("");
      main_checked.get_future().wait();
    } catch (const std::exception &error) {
      guard_built.set_value(error.what());
      worker_after_guard.set_value(testing::AssertionFailure() << "no guard was built");
      return;
    }
    worker_after_guard.set_value(IsCurrent(first));
  });
  const std::string guard_error = guard_built.get_future().get();
  // The main thread stays on its own device while another thread's guard is alive.
  const testing::AssertionResult main_during = IsCurrent(first);
  main_checked.set_value();
  const testing::AssertionResult worker_after = worker_after_guard.get_future().get();
  worker.join();
  ASSERT_EQ(guard_error, "");
  EXPECT_TRUE(main_during) << "while another thread held a guard on " << Show(last);
  EXPECT_TRUE(worker_after) << "on the other thread after its guard";
}

CTS_TEST_F(GuardCase, device_count_for_every_type, "conformance", "guard", "RT-DEV-5", "RT-DEV-6") {
  for (int type = -1; type <= INFINI_DEVICE_TYPE_COUNT; ++type) {
    SCOPED_TRACE("type " + DeviceTypeName(type));
    device::DeviceManager manager(rt(), static_cast<infiniDevice_t>(type));
    int expected = 0;
    const infiniStatus_t status = rt().infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), &expected);
    const bool in_range = type >= 0 && type < INFINI_DEVICE_TYPE_COUNT;
    if (in_range) CTS_ASSERT_OK_AS(status, "infinirtGetDeviceCount(type, &expected)", true);
    EXPECT_EQ(manager.GetDeviceCount(), in_range ? expected : 0);
  }
}

INSTANTIATE_TEST_SUITE_P(conformance, GuardOnPick, testing::ValuesIn(DeviceParams()), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
