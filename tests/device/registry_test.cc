// DeviceManagerRegistry (one manager per type, factory registration) and
// DeviceManager (device identity, range, count).
#include <atomic>
#include <thread>
#include <utility>
#include <vector>

#include "fake_runtime_test_base.h"

namespace infinicts::device::testing {
namespace {

// A manager of its own class, so a test can tell which factory made it.
class TestDeviceManager : public DeviceManager {
 public:
  using DeviceManager::DeviceManager;
};

// Installs a factory for one type and puts the generic one back on scope exit, since
// factories are process-wide.
class ScopedFactory {
 public:
  ScopedFactory(infiniDevice_t type, DeviceManagerFactory factory) : type_(type) {
    DeviceManagerRegistry::RegisterFactory(type, std::move(factory));
  }
  ~ScopedFactory() { DeviceManagerRegistry::RegisterFactory(type_, InfiniRtDeviceManagerFactory()); }

 private:
  infiniDevice_t type_;
};

using RegistryTest = FakeRuntimeTest;

TEST_F(RegistryTest, GenericFactoryIsRegisteredForEveryType) {
  DeviceManagerRegistry registry(rt_);
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    auto device_type = static_cast<infiniDevice_t>(type);
    EXPECT_TRUE(DeviceManagerRegistry::HasFactory(device_type)) << type;
    DeviceManager &manager = registry.GetDeviceManager(device_type);
    EXPECT_EQ(device_type, manager.type());
    EXPECT_EQ(&rt_, &manager.rt());
  }
  EXPECT_FALSE(DeviceManagerRegistry::HasFactory(static_cast<infiniDevice_t>(INFINI_DEVICE_TYPE_COUNT)));
}

TEST_F(RegistryTest, OneManagerPerType) {
  DeviceManagerRegistry registry(rt_);
  DeviceManager &cpu = registry.GetDeviceManager(INFINI_DEVICE_CPU);
  DeviceManager &gpu = registry.GetDeviceManager(INFINI_DEVICE_NVIDIA);
  EXPECT_EQ(&cpu, &registry.GetDeviceManager(INFINI_DEVICE_CPU));
  EXPECT_EQ(&gpu, &registry.GetDeviceManager(INFINI_DEVICE_NVIDIA));
  EXPECT_NE(&cpu, &gpu);
}

TEST_F(RegistryTest, RegisteredFactoryMakesTheManagerOncePerRegistry) {
  int made = 0;
  ScopedFactory scoped(INFINI_DEVICE_ASCEND, [&made](const RtApi &rt, infiniDevice_t type) {
    ++made;
    return std::make_unique<TestDeviceManager>(rt, type);
  });
  DeviceManagerRegistry registry(rt_);
  DeviceManager &first = registry.GetDeviceManager(INFINI_DEVICE_ASCEND);
  DeviceManager &again = registry.GetDeviceManager(INFINI_DEVICE_ASCEND);
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(1, made);
  EXPECT_NE(nullptr, dynamic_cast<TestDeviceManager *>(&first));
  // Other types keep the generic factory.
  EXPECT_EQ(nullptr, dynamic_cast<TestDeviceManager *>(&registry.GetDeviceManager(INFINI_DEVICE_CPU)));

  DeviceManagerRegistry other(rt_);
  EXPECT_NE(&first, &other.GetDeviceManager(INFINI_DEVICE_ASCEND));
  EXPECT_EQ(2, made);
}

TEST_F(RegistryTest, RegisteringAgainReplacesTheFactoryForLaterManagers) {
  DeviceManagerRegistry before(rt_);
  DeviceManager &generic = before.GetDeviceManager(INFINI_DEVICE_METAX);
  ScopedFactory scoped(INFINI_DEVICE_METAX, [](const RtApi &rt, infiniDevice_t type) {
    return std::make_unique<TestDeviceManager>(rt, type);
  });
  EXPECT_EQ(&generic, &before.GetDeviceManager(INFINI_DEVICE_METAX));
  EXPECT_EQ(nullptr, dynamic_cast<TestDeviceManager *>(&generic));
  DeviceManagerRegistry after(rt_);
  EXPECT_NE(nullptr, dynamic_cast<TestDeviceManager *>(&after.GetDeviceManager(INFINI_DEVICE_METAX)));
}

TEST_F(RegistryTest, TypeWithoutFactoryThrowsInvalidArgument) {
  DeviceManagerRegistry::UnregisterFactory(INFINI_DEVICE_MOORE);
  EXPECT_FALSE(DeviceManagerRegistry::HasFactory(INFINI_DEVICE_MOORE));
  DeviceManagerRegistry registry(rt_);
  EXPECT_THROW(registry.GetDeviceManager(INFINI_DEVICE_MOORE), std::invalid_argument);
  DeviceManagerRegistry::RegisterFactory(INFINI_DEVICE_MOORE, InfiniRtDeviceManagerFactory());
  EXPECT_EQ(INFINI_DEVICE_MOORE, registry.GetDeviceManager(INFINI_DEVICE_MOORE).type());
}

TEST_F(RegistryTest, OutOfRangeTypesAndEmptyFactoriesAreRejected) {
  DeviceManagerRegistry registry(rt_);
  EXPECT_THROW(registry.GetDeviceManager(static_cast<infiniDevice_t>(-1)), std::invalid_argument);
  EXPECT_THROW(registry.GetDeviceManager(static_cast<infiniDevice_t>(INFINI_DEVICE_TYPE_COUNT)),
               std::invalid_argument);
  EXPECT_THROW(DeviceManagerRegistry::RegisterFactory(static_cast<infiniDevice_t>(INFINI_DEVICE_TYPE_COUNT),
                                                      InfiniRtDeviceManagerFactory()),
               std::invalid_argument);
  EXPECT_THROW(DeviceManagerRegistry::RegisterFactory(INFINI_DEVICE_CPU, DeviceManagerFactory()),
               std::invalid_argument);
  EXPECT_TRUE(DeviceManagerRegistry::HasFactory(INFINI_DEVICE_CPU));
}

TEST_F(RegistryTest, FactoryMakingNoneOrTheWrongTypeIsALogicError) {
  DeviceManagerRegistry registry(rt_);
  {
    ScopedFactory none(INFINI_DEVICE_KUNLUN, [](const RtApi &, infiniDevice_t) { return nullptr; });
    EXPECT_THROW(registry.GetDeviceManager(INFINI_DEVICE_KUNLUN), std::logic_error);
  }
  {
    ScopedFactory wrong(INFINI_DEVICE_KUNLUN, [](const RtApi &rt, infiniDevice_t) {
      return std::make_unique<DeviceManager>(rt, INFINI_DEVICE_CPU);
    });
    EXPECT_THROW(registry.GetDeviceManager(INFINI_DEVICE_KUNLUN), std::logic_error);
  }
  EXPECT_EQ(INFINI_DEVICE_KUNLUN, registry.GetDeviceManager(INFINI_DEVICE_KUNLUN).type());
}

TEST_F(RegistryTest, ConcurrentFirstUseMakesOneManager) {
  std::atomic<int> made{0};
  ScopedFactory scoped(INFINI_DEVICE_HYGON, [&made](const RtApi &rt, infiniDevice_t type) {
    ++made;
    return std::make_unique<DeviceManager>(rt, type);
  });
  DeviceManagerRegistry registry(rt_);
  DeviceManager *seen[4] = {};
  std::vector<std::thread> threads;
  for (DeviceManager *&slot : seen) {
    threads.emplace_back([&registry, &slot] { slot = &registry.GetDeviceManager(INFINI_DEVICE_HYGON); });
  }
  for (std::thread &thread : threads) thread.join();
  EXPECT_EQ(1, made.load());
  for (DeviceManager *manager : seen) EXPECT_EQ(seen[0], manager);
}

using DeviceManagerTest = FakeRuntimeTest;

TEST_F(DeviceManagerTest, GetDeviceReturnsTheSameObjectForTheSameIndex) {
  DeviceManager manager(rt_, INFINI_DEVICE_NVIDIA);
  Device &first = manager.GetDevice(1);
  EXPECT_EQ(&first, &manager.GetDevice(1));
  EXPECT_NE(&first, &manager.GetDevice(0));
  EXPECT_EQ(gpu1_, first.id());
  EXPECT_EQ(&rt_, &first.rt());
}

TEST_F(DeviceManagerTest, GetDeviceOutOfRangeThrows) {
  DeviceManager manager(rt_, INFINI_DEVICE_NVIDIA);
  EXPECT_THROW(manager.GetDevice(-1), std::out_of_range);
  EXPECT_THROW(manager.GetDevice(3), std::out_of_range);
  EXPECT_NO_THROW(manager.GetDevice(2));
  DeviceManager absent(rt_, INFINI_DEVICE_ALI);
  EXPECT_THROW(absent.GetDevice(0), std::out_of_range);
}

TEST_F(DeviceManagerTest, CountNeverThrowsAndFailureMeansNoDevices) {
  DeviceManager manager(rt_, INFINI_DEVICE_NVIDIA);
  static_assert(noexcept(manager.GetDeviceCount()));
  EXPECT_EQ(3, manager.GetDeviceCount());
  Force("infinirtGetDeviceCount", INFINI_STATUS_INTERNAL_ERROR);
  EXPECT_EQ(0, manager.GetDeviceCount());
  EXPECT_THROW(manager.GetDevice(0), std::out_of_range);
}

TEST_F(DeviceManagerTest, GettingADeviceDoesNotTouchTheCurrentDevice) {
  DeviceManagerRegistry registry(rt_);
  Device &device = registry.GetDevice(gpu2_);
  EXPECT_EQ(&device, &registry.GetDeviceManager(INFINI_DEVICE_NVIDIA).GetDevice(2));
  EXPECT_EQ(0, Calls("infinirtSetDevice"));
  EXPECT_EQ(cpu0_, FakeCurrentDevice());
}

}  // namespace
}  // namespace infinicts::device::testing
