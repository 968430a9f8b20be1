// `run --repeat N`: the passes of a perf case made into one result (runner/repeated_passes.h),
// and the command end to end on the fake suite.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli_fixture.h"
#include "runner/repeated_passes.h"

namespace infinicts {
namespace {

using nlohmann::json;
using report::CaseResult;
using report::Status;
using testing_support::CliRun;
using testing_support::FindResult;
using testing_support::ReadJson;
using testing_support::RunCli;

CaseResult Pass(double median_ms, double duration_ms = 10) {
  CaseResult result;
  result.id = "op.add.perf/f32/n_1024";
  result.mode = "perf";
  result.status = Status::kPass;
  result.duration_ms = duration_ms;
  result.metrics = {{"time_ms_median", median_ms}, {"gbytes_per_s", 1 / median_ms}};
  result.timing = {{"method", "host_clock"}, {"warmup_iterations", 1}, {"samples_ms", {median_ms}}};
  return result;
}

TEST(MergePasses, TheMedianPassStandsForTheCaseAndEveryPassMedianIsKept) {
  const CaseResult merged = runner::MergePasses({Pass(3.0, 1), Pass(1.0, 2), Pass(2.0, 4)});
  EXPECT_EQ(merged.status, Status::kPass);
  EXPECT_DOUBLE_EQ(merged.metrics["time_ms_median"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(merged.metrics["gbytes_per_s"].get<double>(), 0.5);  // the figures of that pass
  EXPECT_EQ(merged.timing["repeat_medians_ms"], json({3.0, 1.0, 2.0}));  // in pass order
  EXPECT_DOUBLE_EQ(merged.duration_ms, 7);
}

TEST(MergePasses, AnEvenCountTakesTheLowerMiddlePass) {
  EXPECT_DOUBLE_EQ(runner::MergePasses({Pass(4), Pass(1), Pass(3), Pass(2)}).metrics["time_ms_median"].get<double>(), 2);
}

TEST(MergePasses, APassThatDidNotPassIsTheResultAndSaysWhichPass) {
  CaseResult failed = Pass(5);
  failed.status = Status::kCrash;
  failed.message = "SIGSEGV";
  const CaseResult merged = runner::MergePasses({Pass(1), failed, Pass(1)});
  EXPECT_EQ(merged.status, Status::kCrash);
  EXPECT_EQ(merged.message, "pass 2 of 3 (--repeat): SIGSEGV");
}

TEST(MergePasses, APassWithoutATimeLeavesTheFirstPass) {
  CaseResult untimed = Pass(1);
  untimed.metrics = json::object();
  untimed.timing = nullptr;
  const CaseResult merged = runner::MergePasses({Pass(7), untimed, Pass(1)});
  EXPECT_DOUBLE_EQ(merged.metrics["time_ms_median"].get<double>(), 7);
  EXPECT_FALSE(merged.timing.contains("repeat_medians_ms"));
}

TEST(MedianTimeMs, FromTheMetricElseTheSamples) {
  EXPECT_EQ(runner::MedianTimeMs(Pass(2)), 2.0);
  CaseResult samples_only = Pass(1);
  samples_only.metrics = json::object();
  samples_only.timing["samples_ms"] = {4.0, 1.0, 2.0, 3.0};
  EXPECT_EQ(runner::MedianTimeMs(samples_only), 2.5);
  samples_only.timing["samples_ms"] = json::array();
  EXPECT_EQ(runner::MedianTimeMs(samples_only), std::nullopt);
}

class RepeatCliTest : public testing_support::CliFixture {};

const char *const kTimedPerf = "rt.memory.perf/copy/d2d";

TEST_F(RepeatCliTest, EachPerfCaseRunsNTimesAndKeepsEveryPassMedian) {
  const CliRun run = RunCli(RunArgs({"--mode", "perf,accuracy", "--filter", "rt.memory.*", "--repeat", "3", "--quiet"}));
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const json report = ReadJson(out_);
  ExpectValid(report);
  const json copy = FindResult(report, kTimedPerf);
  ASSERT_TRUE(copy.is_object()) << report.dump(1);
  EXPECT_EQ(copy["status"], "pass");
  ASSERT_EQ(copy["timing"]["repeat_medians_ms"].size(), 3u) << copy.dump(1);
  // The case's own median is the median of the passes'.
  std::vector<double> medians = copy["timing"]["repeat_medians_ms"];
  std::sort(medians.begin(), medians.end());
  EXPECT_DOUBLE_EQ(copy["metrics"]["time_ms_median"].get<double>(), medians[1]);
  // One result per case, and the accuracy cases once.
  EXPECT_EQ(report["summary"]["total"], report["results"].size());
  const json accuracy = FindResult(report, "rt.memory.accuracy/malloc_free/n16");
  ASSERT_TRUE(accuracy.is_object());
  EXPECT_FALSE(accuracy.contains("timing") && accuracy["timing"].is_object());
}

TEST_F(RepeatCliTest, EachPassRunsTheCaseAgain) {
  const std::string flaky_dir = dir_;
  const CliRun run =
      RunCli(RunArgs({"--mode", "perf", "--filter", "rt.device.perf/flaky_once", "--repeat", "4", "--quiet"}),
             {{"FAKE_SUITE_FLAKY_DIR", flaky_dir}, {"FAKE_SUITE_FLAKY_FAILURES", "0"}});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  std::ifstream attempts(flaky_dir + "/flaky_once.attempts");
  int lines = 0;
  for (std::string line; std::getline(attempts, line);) ++lines;
  EXPECT_EQ(lines, 4);
}

TEST_F(RepeatCliTest, RepeatWithoutPerfCasesIsBadUsage) {
  const CliRun run = RunCli(RunArgs({"--repeat", "3"}));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--repeat runs the perf cases again, and --mode conformance,accuracy runs none"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(RunCli(RunArgs({"--mode", "perf", "--repeat", "0"})).exit_code, 2);
  EXPECT_EQ(RunCli(RunArgs({"--mode", "perf", "--repeat", "101"})).exit_code, 2);
}

}  // namespace
}  // namespace infinicts
