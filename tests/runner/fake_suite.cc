// A suite binary named "rt" whose cases end in every way the runner must handle.
// Crashes and hangs happen only when FAKE_SUITE_FAULTS (comma-separated) asks:
//   abort, segv, hang            the case of that name aborts / segfaults / sleeps
//   blocked                      setup_blocked's SetDevice, which it needs but does not check, fails
//   exit_after_case              the process exits normally after each case it ends
//   exit_before_cases            the process exits normally before its first case
//   exit_error_after_cases       the process exits with code 3 after its last case
//   hang_before_cases            the process sleeps before its first case
//   endless_result_line          hangs writes a result line without end (64 MiB, then sleeps)
// FAKE_SUITE_PID_FILE: the hanging case writes its process id there first.
// FAKE_SUITE_FLAKY_DIR: the perf case flaky_once appends its process id to a file there
// on every attempt and fails while the file holds FAKE_SUITE_FLAKY_FAILURES (default 1)
// lines or fewer; without the variable it passes.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cts/case.h"

namespace {

using infinicts::cts::rt;

bool FaultAsked(const char *name) {
  const char *faults = std::getenv("FAKE_SUITE_FAULTS");
  if (faults == nullptr) return false;
  const std::string list = std::string(",") + faults + ",";
  return list.find(std::string(",") + name + ",") != std::string::npos;
}

class ExitAfterCase : public testing::EmptyTestEventListener {
  void OnTestEnd(const testing::TestInfo &) override {
    // End listeners run in reverse order: the runner's result line is already written.
    if (FaultAsked("exit_after_case")) _exit(0);
  }
};

class FaultsBeforeCases : public testing::Environment {
  void SetUp() override {
    if (FaultAsked("exit_before_cases")) _exit(0);
    if (FaultAsked("hang_before_cases")) sleep(300);
  }
  void TearDown() override {
    if (FaultAsked("exit_error_after_cases")) {
      std::fprintf(stderr, "==1==ERROR: FakeSanitizer: something found at exit\n");
      std::fflush(stderr);
      _exit(3);
    }
  }
};

const bool installed [[maybe_unused]] = [] {
  testing::UnitTest::GetInstance()->listeners().Append(new ExitAfterCase);
  testing::AddGlobalTestEnvironment(new FaultsBeforeCases);
  return true;
}();

class FakeDevice : public infinicts::cts::CaseBase {};
class FakeMemory : public infinicts::cts::CaseBase {};
class FakeEvent : public infinicts::cts::CaseBase {};
class FakeStream : public infinicts::cts::CaseBase {};
class FakeGuard : public infinicts::cts::CaseBase {};

}  // namespace

CTS_TEST_F(FakeDevice, count_is_one, "conformance", "device", "RT-DEV-1") {
  int count = 0;
  CTS_ASSERT_OK(rt().infinirtGetDeviceCount(INFINI_DEVICE_CPU, &count));
  EXPECT_EQ(count, 1);
}

// Far more output than a pipe holds: the runner must keep draining it.
CTS_TEST_F(FakeDevice, chatty, "conformance", "device", "RT-DEV-2") {
  const std::string line(1023, 'x');
  for (int i = 0; i < 512; ++i) {
    std::fprintf(stdout, "%s\n", line.c_str());
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

CTS_TEST_F(FakeMemory, wrong_value, "conformance", "memory", "RT-MEM-1") {
  const int expected = 4, got = 5;
  EXPECT_EQ(expected, got) << "fake check: expected 4 bytes, got 5";
}

CTS_TEST_F(FakeMemory, setup_blocked, "conformance", "memory", "RT-MEM-3") {
  const int device = FaultAsked("blocked") ? 7 : 0;  // the fake backend has device 0 only
  CTS_ASSERT_OK(rt().infinirtSetDevice(INFINI_DEVICE_CPU, device));
}

CTS_TEST_F(FakeEvent, aborts, "conformance", "event", "RT-EVT-1") {
  if (FaultAsked("abort")) {
    std::fprintf(stderr, "fake suite: aborting on purpose\n");
    std::abort();
  }
}

// Crashes in the suite itself (FAKE_SUITE_FAULTS=segv) or in the backend's
// DeviceSynchronize (FAKE_RT_CRASH_IN_SYNCHRONIZE=1).
CTS_TEST_F(FakeEvent, segfaults, "conformance", "event", "RT-EVT-2") {
  if (FaultAsked("segv")) {
    std::fprintf(stderr, "fake suite: segfaulting on purpose\n");
    raise(SIGSEGV);
  }
  CTS_ASSERT_OK(rt().infinirtDeviceSynchronize());
}

CTS_TEST_F(FakeEvent, hangs, "conformance", "event", "RT-EVT-3") {
  if (FaultAsked("endless_result_line")) {
    // As a backend that overwrote the result stream's buffer would: the runner reads fd 3.
    const std::string chunk(1 << 20, 'x');
    for (int i = 0; i < 64; ++i) {
      if (::write(3, chunk.data(), chunk.size()) < 0) break;
    }
    sleep(300);
  }
  if (FaultAsked("hang")) {
    if (const char *pid_file = std::getenv("FAKE_SUITE_PID_FILE")) std::ofstream(pid_file) << getpid() << "\n";
    sleep(300);
  }
}

CTS_TEST_F(FakeStream, needs_two_devices, "conformance", "stream", "RT-STR-1") {
  GTEST_SKIP() << "needs two cpu devices";
}

CTS_TEST_F(FakeGuard, stream_create, "conformance", "guard", "RT-GRD-1") {
  CTS_REQUIRE_SYMBOL(infinirtStreamCreate);
}

namespace {

struct SizeParam : infinicts::cts::ParamBase {
  explicit SizeParam(size_t bytes) : bytes(bytes) {}
  size_t bytes;
  std::string Name() const { return "n" + std::to_string(bytes); }
  std::string Json() const { return "{\"bytes\":" + std::to_string(bytes) + "}"; }
};

// A plain function: cts::PrintTo (a template) and GoogleTest's are equally good
// matches for a ParamBase, and the call would be ambiguous without this one.
void PrintTo(const SizeParam &param, std::ostream *os) { *os << param.Json(); }

}  // namespace

class FakeSizes : public infinicts::cts::ParamCase<SizeParam> {};

CTS_TEST_P(FakeSizes, malloc_free, "memory", "RT-MEM-2") {
  void *pointer = nullptr;
  CTS_ASSERT_OK(rt().infinirtMalloc(&pointer, GetParam().bytes));
  ASSERT_NE(pointer, nullptr);
  std::memset(pointer, 0, GetParam().bytes);
  CTS_ASSERT_OK(rt().infinirtFree(pointer));
  infinicts::cts::RecordMetric("bytes_allocated", static_cast<double>(GetParam().bytes));
}

INSTANTIATE_TEST_SUITE_P(accuracy, FakeSizes, testing::Values(SizeParam(16), SizeParam(64)),
                         infinicts::cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(perf, FakeSizes, testing::Values(SizeParam(1024)), infinicts::cts::NameFromParam());

// Perf cases: the runner's flaky reruns and the roofline of a run.
CTS_TEST_F(FakeDevice, flaky_once, "perf", "device", "RT-DEV-3") {
  const char *dir = std::getenv("FAKE_SUITE_FLAKY_DIR");
  if (dir == nullptr) return;
  const std::string attempts_file = std::string(dir) + "/flaky_once.attempts";
  std::ofstream(attempts_file, std::ios::app) << getpid() << "\n";
  std::ifstream attempts(attempts_file);
  int attempt = 0;
  for (std::string line; std::getline(attempts, line);) ++attempt;
  const char *failures_text = std::getenv("FAKE_SUITE_FLAKY_FAILURES");
  const int failures = failures_text && *failures_text ? std::atoi(failures_text) : 1;
  EXPECT_GT(attempt, failures) << "fake flaky case: failing attempt " << attempt;
}

namespace {

struct CopyParam : infinicts::cts::ParamBase {
  explicit CopyParam(size_t bytes) : bytes(bytes) {}
  size_t bytes;
  std::string Name() const { return "d2d"; }
  std::string Json() const { return "{\"kind\":\"d2d\",\"bytes\":" + std::to_string(bytes) + "}"; }
};

void PrintTo(const CopyParam &param, std::ostream *os) { *os << param.Json(); }

}  // namespace

class FakeCopy : public infinicts::cts::ParamCase<CopyParam> {};

// The fake backend's memory is host memory: a host copy stands for its device-to-device copy.
CTS_TEST_P(FakeCopy, copy, "memory", "RT-MEM-3") {
  const size_t bytes = GetParam().bytes;
  std::vector<char> source(bytes, 1), target(bytes);
  constexpr int kRepeats = 16;
  std::vector<double> samples_ms;
  const auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < kRepeats; ++i) {
    const auto copy_started = std::chrono::steady_clock::now();
    source[static_cast<size_t>(i)] = static_cast<char>(i);
    std::memcpy(target.data(), source.data(), bytes);
    samples_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - copy_started).count());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(target[kRepeats - 1], static_cast<char>(kRepeats - 1));
  infinicts::cts::RecordMetric("gbytes_per_s", static_cast<double>(bytes) * kRepeats / std::max(seconds, 1e-9) * 1e-9);
  // A time as the real perf cases give it, for compare and `run --repeat`.
  std::vector<double> sorted = samples_ms;
  std::sort(sorted.begin(), sorted.end());
  infinicts::cts::RecordMetric("time_ms_median", std::max(sorted[sorted.size() / 2], 1e-6));
  infinicts::cts::RecordTiming({{"method", "host_clock"}, {"warmup_iterations", 0}, {"samples_ms", samples_ms}});
}

INSTANTIATE_TEST_SUITE_P(perf, FakeCopy, testing::Values(CopyParam(1 << 20)), infinicts::cts::NameFromParam());
