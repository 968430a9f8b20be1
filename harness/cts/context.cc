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
                  std::vector<std::string> clauses) {
  Registry()[std::string(fixture) + "." + test] = CaseMeta{mode, subject, std::move(clauses)};
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

std::string &OptionalCapability() {
  static std::string capability;
  return capability;
}

void NoteOptionalCapability(const std::string &capability) {
  std::lock_guard<std::mutex> lock(MetricsMutex());
  OptionalCapability() = capability;
}

std::string TakeOptionalCapability() { return TakeNoted(OptionalCapability()); }

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

void CaseBase::SetUp() {
  const Context &context = GetContext();
  if (context.device_ids.empty()) {
    GTEST_SKIP() << "the backend has no " << DeviceTypeName(context.device_type) << " device";
  }
  CTS_ASSERT_OK(rt().infinirtSetDevice(context.device_type, context.device_ids.front()));
}

}  // namespace infinicts::cts
