// The wrapper on its own, loaded as the harness loads a backend: it exports every
// InfiniRT function, forwards faithfully without a fault, finds its target, refuses to
// wrap itself, and each runtime fault does exactly what its name says.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "backend/backend.h"
#include "selftest/child.h"

namespace infinicts::fault::selftest {
namespace {

using Environment = std::vector<std::pair<std::string, std::string>>;

const char *const kWrapperDir = INFINICTS_FAULT_WRAPPER_DIR;
const char *const kReferenceDir = INFINICTS_REFERENCE_DIR;
constexpr double kChildLimitSeconds = 30;

Environment WithFault(const std::string &fault) {
  return {{"INFINICTS_FAULT", fault}, {"INFINICTS_FAULT_TARGET", kReferenceDir}};
}

std::unique_ptr<Backend> LoadOrDie(const std::string &path) {
  std::string error;
  auto backend = Backend::Load({path}, &error);
  if (!backend) {
    std::fprintf(stderr, "cannot load %s: %s\n", path.c_str(), error.c_str());
    std::fflush(stderr);
    _exit(90);
  }
  return backend;
}

std::vector<unsigned char> RandomBytes(size_t size, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<unsigned char> bytes(size);
  for (auto &b : bytes) b = static_cast<unsigned char>(byte(engine));
  return bytes;
}

void ExpectPassed(const ChildOutcome &outcome) {
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_TRUE(outcome.exited) << "killed by signal " << outcome.signal;
  EXPECT_EQ(outcome.exit_code, 0);
}

// H2D then D2H of seeded random bytes through `rt`: the bytes come back.
int RoundTrip(const RtApi &rt) {
  const auto data = RandomBytes(4099, 11);
  void *device = nullptr;
  CHILD_REQUIRE(rt.infinirtMalloc(&device, data.size()) == INFINI_STATUS_SUCCESS && device != nullptr);
  CHILD_REQUIRE(rt.infinirtMemcpy(device, data.data(), data.size(), INFINIRT_MEMCPY_H2D) == INFINI_STATUS_SUCCESS);
  std::vector<unsigned char> back(data.size());
  CHILD_REQUIRE(rt.infinirtMemcpy(back.data(), device, back.size(), INFINIRT_MEMCPY_D2H) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(back == data);
  CHILD_REQUIRE(rt.infinirtFree(device) == INFINI_STATUS_SUCCESS);
  return 0;
}

// An async H2D copy followed on the same stream by a memset of the same bytes.
// In stream order the memset wins; `copy_wins` says which outcome to expect.
int CopyThenMemset(const RtApi &rt, bool copy_wins) {
  const auto data = RandomBytes(1 << 16, 12);
  const int fill = 0x5A;
  infinirtStream_t stream = nullptr;
  void *device = nullptr;
  CHILD_REQUIRE(rt.infinirtStreamCreate(&stream) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtMalloc(&device, data.size()) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtMemcpyAsync(device, data.data(), data.size(), INFINIRT_MEMCPY_H2D, stream) ==
                INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtMemsetAsync(device, fill, data.size(), stream) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtStreamSynchronize(stream) == INFINI_STATUS_SUCCESS);
  std::vector<unsigned char> back(data.size());
  CHILD_REQUIRE(rt.infinirtMemcpy(back.data(), device, back.size(), INFINIRT_MEMCPY_D2H) == INFINI_STATUS_SUCCESS);
  if (copy_wins) {
    CHILD_REQUIRE(back == data);
  } else {
    CHILD_REQUIRE(back == std::vector<unsigned char>(data.size(), fill));
  }
  CHILD_REQUIRE(rt.infinirtFree(device) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtStreamDestroy(stream) == INFINI_STATUS_SUCCESS);
  return 0;
}

TEST(FaultRtWrapper, ExportsEveryRuntimeFunction) {
  // Loading the wrapper does not touch its target, so this runs in the test process. The
  // runtime wrapper's file alone: the operator and collective wrappers share its folder.
  std::string error;
  auto wrapper = Backend::Load({std::string(kWrapperDir) + "/libinfinirt.so"}, &error);
  ASSERT_TRUE(wrapper) << error;
  EXPECT_TRUE(wrapper->missing().empty());
  EXPECT_EQ(wrapper->exported().size(), KnownRtSymbols().size());
}

TEST(FaultRtWrapper, ForwardsFaithfullyWithoutAFault) {
  for (const char *fault : {"", "none", "a_fault_of_another_interface"}) {
    SCOPED_TRACE(fault);
    ExpectPassed(RunInChild(WithFault(fault), [] {
      auto wrapper = LoadOrDie(kWrapperDir);
      const RtApi &rt = wrapper->rt();
      if (int failed = RoundTrip(rt)) return failed;
      if (int failed = CopyThenMemset(rt, false)) return failed;
      CHILD_REQUIRE(rt.infinirtSetDevice(INFINI_DEVICE_CPU, 0) == INFINI_STATUS_SUCCESS);
      CHILD_REQUIRE(rt.infinirtSetDevice(INFINI_DEVICE_CPU, 1 << 20) == INFINI_STATUS_DEVICE_NOT_FOUND);
      infiniDevice_t type = INFINI_DEVICE_NVIDIA;
      int id = -1;
      CHILD_REQUIRE(rt.infinirtGetDevice(&type, &id) == INFINI_STATUS_SUCCESS);
      CHILD_REQUIRE(type == INFINI_DEVICE_CPU && id == 0);
      void *null_answer = nullptr;
      CHILD_REQUIRE(rt.infinirtMalloc(&null_answer, 0) == INFINI_STATUS_SUCCESS);
      CHILD_REQUIRE(rt.infinirtFree(null_answer) == INFINI_STATUS_SUCCESS);
      return 0;
    }, kChildLimitSeconds));
  }
}

TEST(FaultRtWrapper, FindsTheReferenceNextToItsFolderByDefault) {
  ExpectPassed(RunInChild({{"INFINICTS_FAULT", ""}, {"INFINICTS_FAULT_TARGET", ""}}, [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    return RoundTrip(wrapper->rt());
  }, kChildLimitSeconds));
}

TEST(FaultRtWrapper, StopsWithAReasonWhenTheTargetIsMissingOrItself) {
  for (const std::string &target : {std::string("/nonexistent-infinicts-target"), std::string(kWrapperDir)}) {
    SCOPED_TRACE(target);
    const ChildOutcome outcome =
        RunInChild({{"INFINICTS_FAULT", ""}, {"INFINICTS_FAULT_TARGET", target}}, [] {
          auto wrapper = LoadOrDie(kWrapperDir);
          wrapper->rt().infinirtInit();
          return 0;
        }, kChildLimitSeconds);
    EXPECT_FALSE(outcome.timed_out);
    EXPECT_EQ(outcome.signal, SIGABRT);
  }
}

TEST(FaultRtWrapper, MemcpyAsyncOutOfOrderRunsTheCopyAfterLaterWork) {
  ExpectPassed(RunInChild(WithFault("memcpy_async_out_of_order"), [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    const RtApi &rt = wrapper->rt();
    if (int failed = CopyThenMemset(rt, true)) return failed;
    // Arguments refused on sight still get the target's answer.
    void *device = nullptr;
    CHILD_REQUIRE(rt.infinirtMalloc(&device, 64) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtMemcpyAsync(device, nullptr, 64, INFINIRT_MEMCPY_H2D, nullptr) ==
                  INFINI_STATUS_NULL_POINTER);
    // A copy deferred on the NULL stream is made at DeviceSynchronize.
    const auto data = RandomBytes(64, 13);
    CHILD_REQUIRE(rt.infinirtMemcpyAsync(device, data.data(), data.size(), INFINIRT_MEMCPY_H2D, nullptr) ==
                  INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtDeviceSynchronize() == INFINI_STATUS_SUCCESS);
    std::vector<unsigned char> back(data.size());
    CHILD_REQUIRE(rt.infinirtMemcpy(back.data(), device, back.size(), INFINIRT_MEMCPY_D2H) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(back == data);
    return 0;
  }, kChildLimitSeconds));
}

TEST(FaultRtWrapper, ElapsedInSecondsDividesTheTargetsAnswerByAThousand) {
  ExpectPassed(RunInChild(WithFault("elapsed_in_seconds"), [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    auto reference = LoadOrDie(kReferenceDir);  // the same loaded library as the wrapper's target
    const RtApi &rt = wrapper->rt();
    infinirtStream_t stream = nullptr;
    infinirtEvent_t start = nullptr, end = nullptr;
    void *device = nullptr;
    const size_t size = 32 << 20;
    CHILD_REQUIRE(rt.infinirtStreamCreate(&stream) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtEventCreate(&start) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtEventCreate(&end) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtMalloc(&device, size) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtEventRecord(start, stream) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtMemsetAsync(device, 1, size, stream) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtEventRecord(end, stream) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtEventSynchronize(end) == INFINI_STATUS_SUCCESS);
    float wrapped = 0, real = 0;
    CHILD_REQUIRE(rt.infinirtEventElapsedTime(&wrapped, start, end) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(reference->rt().infinirtEventElapsedTime(&real, start, end) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(real > 0);
    CHILD_REQUIRE(std::abs(wrapped * 1000.0f - real) <= 1e-4f * real);
    CHILD_REQUIRE(rt.infinirtEventElapsedTime(nullptr, start, end) == INFINI_STATUS_NULL_POINTER);
    return 0;
  }, kChildLimitSeconds));
}

TEST(FaultRtWrapper, FailedSetDeviceSwitchesToAnotherDevice) {
  Environment environment = WithFault("set_device_switches_on_failure");
  environment.push_back({"INFINICTS_CPU_DEVICES", "3"});
  ExpectPassed(RunInChild(environment, [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    const RtApi &rt = wrapper->rt();
    infiniDevice_t type = INFINI_DEVICE_NVIDIA;
    int id = -1;
    CHILD_REQUIRE(rt.infinirtSetDevice(INFINI_DEVICE_CPU, 2) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtSetDevice(INFINI_DEVICE_CPU, 7) == INFINI_STATUS_DEVICE_NOT_FOUND);
    CHILD_REQUIRE(rt.infinirtGetDevice(&type, &id) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(type == INFINI_DEVICE_CPU && id == 0);
    CHILD_REQUIRE(rt.infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0) == INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
    CHILD_REQUIRE(rt.infinirtGetDevice(&type, &id) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(type == INFINI_DEVICE_CPU && id == 1);
    return 0;
  }, kChildLimitSeconds));
}

TEST(FaultRtWrapper, FailedSetDeviceIsForwardedWithASingleDevice) {
  Environment environment = WithFault("set_device_switches_on_failure");
  environment.push_back({"INFINICTS_CPU_DEVICES", "1"});
  ExpectPassed(RunInChild(environment, [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    const RtApi &rt = wrapper->rt();
    infiniDevice_t type = INFINI_DEVICE_NVIDIA;
    int id = -1;
    CHILD_REQUIRE(rt.infinirtSetDevice(INFINI_DEVICE_CPU, 1) == INFINI_STATUS_DEVICE_NOT_FOUND);
    CHILD_REQUIRE(rt.infinirtGetDevice(&type, &id) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(type == INFINI_DEVICE_CPU && id == 0);
    return 0;
  }, kChildLimitSeconds));
}

TEST(FaultRtWrapper, MallocNullAnswersSuccessWithNull) {
  ExpectPassed(RunInChild(WithFault("malloc_null"), [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    const RtApi &rt = wrapper->rt();
    void *pointer = &pointer;
    CHILD_REQUIRE(rt.infinirtMalloc(&pointer, 256) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(pointer == nullptr);
    CHILD_REQUIRE(rt.infinirtMalloc(nullptr, 256) == INFINI_STATUS_NULL_POINTER);
    CHILD_REQUIRE(rt.infinirtMallocHost(&pointer, 256) == INFINI_STATUS_SUCCESS && pointer != nullptr);
    CHILD_REQUIRE(rt.infinirtFreeHost(pointer) == INFINI_STATUS_SUCCESS);
    return 0;
  }, kChildLimitSeconds));
}

TEST(FaultRtWrapper, CrashInStreamCreateKillsTheProcess) {
  const ChildOutcome outcome = RunInChild(WithFault("crash_in_stream_create"), [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    if (int failed = RoundTrip(wrapper->rt())) return failed;
    infinirtStream_t stream = nullptr;
    wrapper->rt().infinirtStreamCreate(&stream);
    return 0;
  }, kChildLimitSeconds);
  EXPECT_FALSE(outcome.exited) << "exit code " << outcome.exit_code;
  EXPECT_EQ(outcome.signal, SIGSEGV);
}

TEST(FaultRtWrapper, HangInStreamSynchronizeNeverReturns) {
  const ChildOutcome outcome = RunInChild(WithFault("hang_in_stream_synchronize"), [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    const RtApi &rt = wrapper->rt();
    if (int failed = RoundTrip(rt)) return failed;
    infinirtStream_t stream = nullptr;
    CHILD_REQUIRE(rt.infinirtStreamCreate(&stream) == INFINI_STATUS_SUCCESS);
    rt.infinirtStreamSynchronize(stream);
    return 0;
  }, 2.0);
  EXPECT_TRUE(outcome.timed_out) << "exited with " << outcome.exit_code << ", signal " << outcome.signal;
}

TEST(FaultRtWrapper, D2hShortByOneLeavesTheLastByte) {
  ExpectPassed(RunInChild(WithFault("d2h_short_by_one"), [] {
    auto wrapper = LoadOrDie(kWrapperDir);
    const RtApi &rt = wrapper->rt();
    auto data = RandomBytes(1000, 14);
    const unsigned char untouched = static_cast<unsigned char>(data.back() ^ 0xFF);
    void *device = nullptr;
    CHILD_REQUIRE(rt.infinirtMalloc(&device, data.size()) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(rt.infinirtMemcpy(device, data.data(), data.size(), INFINIRT_MEMCPY_H2D) == INFINI_STATUS_SUCCESS);
    std::vector<unsigned char> back(data.size(), untouched);
    CHILD_REQUIRE(rt.infinirtMemcpy(back.data(), device, back.size(), INFINIRT_MEMCPY_D2H) == INFINI_STATUS_SUCCESS);
    CHILD_REQUIRE(std::equal(data.begin(), data.end() - 1, back.begin()));
    CHILD_REQUIRE(back.back() == untouched);
    return 0;
  }, kChildLimitSeconds));
}

}  // namespace
}  // namespace infinicts::fault::selftest
