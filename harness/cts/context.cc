#include <cstdlib>
#include <map>
#include <mutex>

#include "cts/case.h"
#include "cts/case_state.h"
#include "report/fnv1a.h"

namespace infinicts::cts {
namespace {

std::map<std::string, CaseMeta> &Registry() {
  static std::map<std::string, CaseMeta> registry;
  return registry;
}

std::mutex &MetricsMutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<std::pair<std::string, double>> &Metrics() {
  static std::vector<std::pair<std::string, double>> metrics;
  return metrics;
}

nlohmann::json &Timing() {
  static nlohmann::json timing;
  return timing;
}

// What a case noted, handed over once and left empty for the next case.
template <class T>
T TakeNoted(T &noted) {
  std::lock_guard<std::mutex> lock(MetricsMutex());
  T taken;
  taken.swap(noted);
  return taken;
}

}  // namespace

Context &GetContext() {
  static Context context;
  return context;
}

bool RegisterCase(const char *fixture, const char *test, const char *mode, const char *subject,
                  std::vector<std::string> clauses, CaseInput input) {
  Registry()[std::string(fixture) + "." + test] = CaseMeta{mode, subject, std::move(clauses), input};
  return true;
}

const CaseMeta *FindCase(const std::string &fixture, const std::string &test) {
  auto it = Registry().find(fixture + "." + test);
  return it == Registry().end() ? nullptr : &it->second;
}

const CaseMeta *CaseMetaOf(const testing::TestInfo &info) {
  // Parameterised: suite "<mode>/<Fixture>", test "<test>/<param>" (as cts/case_list.cc reads them).
  std::string fixture = info.test_suite_name(), test = info.name();
  if (const size_t slash = fixture.find('/'); slash != std::string::npos) fixture.erase(0, slash + 1);
  if (const size_t slash = test.find('/'); slash != std::string::npos) test.erase(slash);
  return FindCase(fixture, test);
}

const CaseMeta *RunningCase() {
  const testing::TestInfo *info = testing::UnitTest::GetInstance()->current_test_info();
  return info == nullptr ? nullptr : CaseMetaOf(*info);
}

void RecordMetric(const std::string &name, double value) {
  std::lock_guard<std::mutex> lock(MetricsMutex());
  for (auto &entry : Metrics()) {
    if (entry.first == name) {
      entry.second = value;
      return;
    }
  }
  Metrics().emplace_back(name, value);
}

std::vector<std::pair<std::string, double>> TakeMetrics() { return TakeNoted(Metrics()); }

void RecordShould(const std::string &metric, int status, std::initializer_list<int> recommended) {
  bool as_recommended = false;
  for (int wanted : recommended) as_recommended = as_recommended || status == wanted;
  RecordMetric(metric, as_recommended ? 1 : 0);
  RecordMetric(metric + "_status", status);
}

void RecordOtherRefusal(const std::string &call, int status, int named) {
  int refusals = 1;
  {
    std::lock_guard<std::mutex> lock(MetricsMutex());
    for (const auto &entry : Metrics()) {
      if (entry.first == "refused_with_other_status") refusals = static_cast<int>(entry.second) + 1;
    }
  }
  RecordMetric("refused_with_other_status", refusals);
  const std::string function = FunctionIn(call);
  NoteHowItRan("refused " + (function.empty() ? call : function) + " with " + StatusName(status) + " where the spec names " +
               StatusName(named));
}

std::string &OptionalCapability() {
  static std::string capability;
  return capability;
}

void NoteOptionalCapability(const std::string &capability) {
  std::lock_guard<std::mutex> lock(MetricsMutex());
  OptionalCapability() = capability;
}

std::string TakeOptionalCapability() { return TakeNoted(OptionalCapability()); }

std::string &HowItRan() {
  static std::string note;
  return note;
}

void NoteHowItRan(const std::string &note) {
  std::lock_guard<std::mutex> lock(MetricsMutex());
  std::string &notes = HowItRan();
  if (notes.find(note) != std::string::npos) return;
  notes += (notes.empty() ? "" : "; ") + note;
}

std::string TakeHowItRan() { return TakeNoted(HowItRan()); }

void RecordTiming(const nlohmann::json &timing) {
  std::lock_guard<std::mutex> lock(MetricsMutex());
  Timing() = timing;
}

nlohmann::json TakeTiming() { return TakeNoted(Timing()); }

bool FullProfile() {
  const char *profile = std::getenv("INFINICTS_PROFILE");
  return profile != nullptr && std::string(profile) == "full";
}

uint64_t CaseSeed() {
  const testing::TestInfo *info = testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  // Stable across builds and machines. The basis is the one the seeds were first made with
  // (the standard one without its last digit): every case keeps the data it always had.
  report::Fnv1a hash(1469598103934665603ull);
  hash.Add(name.data(), name.size());
  return hash.value();
}

bool IsUnsupportedStatus(int status) {
  return status == INFINI_STATUS_NOT_IMPLEMENTED || status == INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
}

namespace {

// Whether the backend has collectives for the device type under test, asked once per suite
// process with a communicator of one rank: a backend without (InfiniCore's CPU build has no
// CPU InfiniCCL) makes the whole ccl suite `unsupported` for one reason, not skipped case by case.
int CollectivesProbeStatus() {
  static const int status = [] {
    const Context &context = GetContext();
    infinicclComm_t comm = nullptr;
    const int device = context.device_ids.front();
    const int answered = ccl().infinicclCommInitAll(context.device_type, &comm, 1, &device);
    if (answered == INFINI_STATUS_SUCCESS && comm != nullptr) ccl().infinicclCommDestroy(comm);
    return answered;
  }();
  return status;
}

}  // namespace

void CaseBase::SetUp() {
  const Context &context = GetContext();
  if (context.device_ids.empty()) {
    GTEST_SKIP() << "the backend has no " << DeviceTypeName(context.device_type) << " device";
  }
  CTS_ASSERT_OK(rt().infinirtSetDevice(context.device_type, context.device_ids.front()));
  if (context.suite == "ccl") {
    if (const int status = CollectivesProbeStatus(); IsUnsupportedStatus(status)) {
      GTEST_SKIP() << kUnsupportedPrefix << "the backend has no collectives for " << DeviceTypeName(context.device_type)
                   << " devices: infinicclCommInitAll of one rank answered " << StatusName(status);
    }
  }
}

}  // namespace infinicts::cts
