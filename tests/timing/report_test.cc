// What a measurement puts into the report: the environment's options, the `timing`
// object (checked against the report schema) and the metrics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>

#include "cts/case_state.h"
#include "report/json_schema.h"
#include "timing/timing.h"

namespace infinicts::timing {
namespace {

class EnvironmentOptions : public testing::Test {
 protected:
  void SetUp() override { Clear(); }
  void TearDown() override { Clear(); }
  static void Clear() {
    unsetenv("INFINICTS_PERF_BUDGET_MS");
    unsetenv("INFINICTS_PERF_COLD_CACHE");
  }
};

TEST_F(EnvironmentOptions, DefaultsWithoutVariables) {
  const Options options = OptionsFromEnvironment();
  const Options defaults;
  EXPECT_EQ(options.budget_ms, defaults.budget_ms);
  EXPECT_EQ(options.cold_cache, false);
}

TEST_F(EnvironmentOptions, VariablesOverride) {
  setenv("INFINICTS_PERF_BUDGET_MS", "250.5", 1);
  setenv("INFINICTS_PERF_COLD_CACHE", "1", 1);
  const Options options = OptionsFromEnvironment();
  EXPECT_EQ(options.budget_ms, 250.5);
  EXPECT_TRUE(options.cold_cache);
}

TEST_F(EnvironmentOptions, MalformedValuesAreIgnoredWithAWarning) {
  const Options defaults;
  for (const char *budget : {"abc", "-5", "0", "12ms", "inf"}) {
    setenv("INFINICTS_PERF_BUDGET_MS", budget, 1);
    setenv("INFINICTS_PERF_COLD_CACHE", "yes", 1);
    testing::internal::CaptureStderr();
    const Options options = OptionsFromEnvironment();
    const std::string warnings = testing::internal::GetCapturedStderr();
    EXPECT_EQ(options.budget_ms, defaults.budget_ms) << budget;
    EXPECT_FALSE(options.cold_cache);
    EXPECT_NE(warnings.find("INFINICTS_PERF_BUDGET_MS"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("INFINICTS_PERF_COLD_CACHE"), std::string::npos) << warnings;
    EXPECT_EQ(std::count(warnings.begin(), warnings.end(), '\n'), 2) << warnings;  // one line each
  }
}

Measurement Sample() {
  Measurement measurement;
  measurement.method = Method::kDeviceEvents;
  measurement.warmup_iterations = 12;
  measurement.cold_cache = true;
  measurement.rotating_buffers = 4;
  measurement.budget_ms = 100;
  measurement.samples_ms = {0.123456789, 2, 1.00000049, 0};
  measurement.stats = Summarize(measurement.samples_ms);
  return measurement;
}

TEST(MeasurementJson, CarriesEveryFieldWithSamplesToSixDigits) {
  const nlohmann::json json = Sample().ToJson();
  EXPECT_EQ(json.at("method"), "device_events");
  EXPECT_EQ(json.at("warmup_iterations"), 12);
  EXPECT_EQ(json.at("cold_cache"), true);
  EXPECT_EQ(json.at("rotating_buffers"), 4);
  EXPECT_EQ(json.at("budget_ms"), 100.0);
  EXPECT_EQ(json.at("samples_ms").dump(), "[0.123457,2.0,1.0,0.0]");
  EXPECT_EQ(json.at("launches_per_sample"), 1);
  EXPECT_EQ(json.at("resolved"), true);
  EXPECT_FALSE(json.contains("resolution_ms")) << "none measured";
  EXPECT_EQ(json.size(), 8u);
}

TEST(MeasurementJson, ValidatesAgainstTheReportSchema) {
  std::ifstream file(INFINICTS_TEST_SCHEMA);
  ASSERT_TRUE(file) << INFINICTS_TEST_SCHEMA;
  const nlohmann::json schema = nlohmann::json::parse(file);
  const report::JsonSchemaValidator validator(schema.at("definitions").at("result").at("properties").at("timing"));
  Measurement host = Sample();
  host.method = Method::kHostClock;
  for (const Measurement &measurement : {Sample(), host, Measurement()}) {
    const auto violations = validator.Validate(measurement.ToJson());
    EXPECT_TRUE(violations.empty()) << measurement.ToJson().dump() << ": " << violations.front().pointer << " "
                                    << violations.front().message;
  }
}

TEST(RecordMeasurement, RecordsMetricsAndTiming) {
  cts::TakeMetrics();
  cts::TakeTiming();
  const Measurement measurement = Sample();
  RecordMeasurement(measurement);
  const auto metrics = cts::TakeMetrics();
  std::map<std::string, double> by_name(metrics.begin(), metrics.end());
  EXPECT_EQ(by_name.size(), 7u);
  EXPECT_EQ(by_name.at("time_ms_median"), measurement.stats.median_ms);
  EXPECT_EQ(by_name.at("time_ms_min"), 0);
  EXPECT_EQ(by_name.at("time_ms_p10"), measurement.stats.p10_ms);
  EXPECT_EQ(by_name.at("time_ms_p90"), measurement.stats.p90_ms);
  EXPECT_EQ(by_name.at("time_ms_max"), 2);
  EXPECT_EQ(by_name.at("time_cv"), measurement.stats.cv);
  EXPECT_EQ(by_name.at("iterations"), 4);
  EXPECT_EQ(cts::TakeTiming(), measurement.ToJson());
}

TEST(RecordMeasurement, SummarizesSamplesTheCallerFilledIn) {
  Measurement measurement;
  measurement.samples_ms = {1, 3};
  RecordMeasurement(measurement);
  const auto metrics = cts::TakeMetrics();
  std::map<std::string, double> by_name(metrics.begin(), metrics.end());
  EXPECT_EQ(by_name.at("time_ms_median"), 2);
  EXPECT_EQ(by_name.at("iterations"), 2);
  cts::TakeTiming();
}

}  // namespace
}  // namespace infinicts::timing
