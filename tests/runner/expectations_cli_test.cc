// End-to-end: `infinicts run --expect FILE` and the roofline of a perf run, against the
// fake rt suite and fake backend.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "cli_fixture.h"

namespace infinicts {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::FakeBackendDir;
using testing_support::FindResult;
using testing_support::ReadJson;
using testing_support::RunCli;
using testing_support::ScratchDir;

const char *const kPassing = "rt.device.conformance/count_is_one";
const char *const kFailing = "rt.memory.conformance/wrong_value";
const char *const kSegfaults = "rt.event.conformance/segfaults";
const char *const kSkipped = "rt.stream.conformance/needs_two_devices";
const char *const kFlaky = "rt.device.perf/flaky_once";
const char *const kCopy = "rt.memory.perf/copy/d2d";
const char *const kMallocPerf = "rt.memory.perf/malloc_free/n1024";

class ExpectCliTest : public testing_support::CliFixture {
 protected:
  ExpectCliTest() : CliFixture("expect-") {}

  void SetUp() override {
    CliFixture::SetUp();
    expect_ = dir_ + "/expect.txt";
  }

  void WriteExpectations(const std::string &text) const { std::ofstream(expect_) << text; }

  // Every run here is quiet.
  std::vector<std::string> RunArgs(std::vector<std::string> extra) const {
    extra.insert(extra.begin(), "--quiet");
    return CliFixture::RunArgs(std::move(extra));
  }

  std::string expect_;
};

TEST_F(ExpectCliTest, XfailSkipAndUnexpectedPass) {
  WriteExpectations(
      "# the fake backend's known problems\n"
      "xfail rt.memory.conformance/wrong_value  # off by one\n"
      "xfail rt.device.conformance/count_is_one\n"
      "skip rt.stream.*   # needs two devices\n"
      "skip rt.event.conformance/segfaults\n");
  // The segfaulting case would crash if it ran: skipped, it does not.
  const CliRun run = RunCli(RunArgs({"--expect", expect_}), {{"FAKE_SUITE_FAULTS", "segv"}});
  EXPECT_EQ(run.exit_code, 0) << "a known failure does not fail the run\n" << run.out << run.err;
  const json report = ReadJson(out_);
  ExpectValid(report);

  const json failing = FindResult(report, kFailing);
  EXPECT_EQ(failing["status"], "xfail");
  const std::string message = failing["message"];
  EXPECT_EQ(message.rfind("expected failure (" + expect_ + ":2): ", 0), 0u) << message;
  EXPECT_NE(message.find("fake check: expected 4 bytes, got 5"), std::string::npos) << message;
  EXPECT_NE(message.find(std::string("rerun: ") + INFINICTS_TEST_CLI + " run"), std::string::npos) << message;

  const json passing = FindResult(report, kPassing);
  EXPECT_EQ(passing["status"], "pass");
  EXPECT_EQ(passing["message"], "unexpected pass: listed as xfail in " + expect_ + ":3");

  EXPECT_EQ(FindResult(report, kSkipped)["status"], "skip");
  EXPECT_EQ(FindResult(report, kSkipped)["message"], "listed as skip in " + expect_ + ":4 (needs two devices)");
  EXPECT_EQ(FindResult(report, kSegfaults)["status"], "skip");
  EXPECT_EQ(FindResult(report, kSegfaults)["message"], "listed as skip in " + expect_ + ":5");

  EXPECT_EQ(report["summary"]["xfail"], 1);
  EXPECT_EQ(report["summary"]["fail"], 0);
  EXPECT_EQ(report["summary"]["crash"], 0);
  EXPECT_EQ(report["summary"]["total"], 11);
  EXPECT_EQ(report["expectations"],
            json({{"file", expect_},
                  {"xfail", {kFailing}},
                  {"unexpected_pass", {kPassing}},
                  {"flaky", json::array()},
                  {"skipped", {kSegfaults, kSkipped}}}));
  // A known failure still keeps the level from being reached.
  const std::string reasons = report["summary"]["levels_detail"]["minimal"].dump();
  EXPECT_NE(reasons.find("rt.memory: 1 xfail (first: rt.memory.conformance/wrong_value)"), std::string::npos)
      << reasons;

  EXPECT_NE(run.out.find(std::string("UNEXPECTED PASS ") + kPassing + " (listed as xfail in " + expect_ + ":3)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("expectations " + expect_ + ": 1 xfail, 1 unexpected pass, 0 flaky rerun, 2 skipped"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find(std::string("FAIL     ") + kFailing), std::string::npos) << "an xfail is no failure line";
}

TEST_F(ExpectCliTest, AMalformedFileExitsTwoBeforeAnythingRuns) {
  WriteExpectations("xfail rt.*\n\nxfial rt.memory.*  # typo\n");
  const CliRun run = RunCli(RunArgs({"--expect", expect_}));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "infinicts: " + expect_ +
                         ":3: unknown kind 'xfial' (expected xfail, flaky or skip followed by a glob)\n");
  EXPECT_TRUE(ReadJson(out_).is_null()) << "no report for a run that never started";
}

TEST_F(ExpectCliTest, AFlakyCaseIsRerunAloneAndTheRooflineIsWritten) {
  WriteExpectations("flaky rt.device.perf/*  # shared machine\n");
  const CliRun run = RunCli(RunArgs({"--mode", "perf", "--expect", expect_}), {{"FAKE_SUITE_FLAKY_DIR", dir_}});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const json report = ReadJson(out_);
  ExpectValid(report);

  const json flaky = FindResult(report, kFlaky);
  EXPECT_EQ(flaky["status"], "pass");
  const std::string message = flaky["message"];
  EXPECT_EQ(message.rfind("listed as flaky in " + expect_ + ":1: attempt 1 fail (", 0), 0u) << message;
  // The first line of the first failure, as the case put it (GoogleTest's "Expected: …" reworded).
  EXPECT_NE(message.find("fake flaky case: failing attempt 1: expected attempt > failures, got 1 vs 1)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(", attempt 2 pass"), std::string::npos) << message;
  EXPECT_EQ(report["expectations"]["flaky"], json::parse(R"([{"id":")" + std::string(kFlaky) +
                                                         R"(","attempts":2,"status":"pass"}])"));
  EXPECT_EQ(report["summary"]["total"], 3);
  EXPECT_EQ(report["summary"]["pass"], 3);
  EXPECT_NE(run.out.find(std::string("FLAKY ") + kFlaky + ": pass after 2 attempts (listed as flaky in " + expect_ +
                         ":1)"),
            std::string::npos)
      << run.out;

  // The roofline: the d2d copy sets the bandwidth peak and reaches all of it.
  const json copy = FindResult(report, kCopy);
  ASSERT_TRUE(copy.is_object());
  const double rate = copy["metrics"]["gbytes_per_s"];
  EXPECT_GT(rate, 0);
  EXPECT_DOUBLE_EQ(copy["metrics"]["roof_fraction"].get<double>(), 1.0);
  EXPECT_FALSE(FindResult(report, kMallocPerf)["metrics"].contains("roof_fraction")) << "no rate, no roof";
  ASSERT_TRUE(report.contains("roofline"));
  EXPECT_EQ(report["roofline"]["device"], "cpu");
  const json peaks = report["roofline"]["peaks"];
  ASSERT_EQ(peaks.size(), 1u) << peaks.dump();
  EXPECT_EQ(peaks[0]["name"], "bandwidth");
  EXPECT_EQ(peaks[0]["source"], "measured");
  EXPECT_EQ(peaks[0]["case_id"], kCopy);
  EXPECT_DOUBLE_EQ(peaks[0]["value"].get<double>(), 2 * rate) << "a copy's memory traffic: it reads and writes";
}

TEST_F(ExpectCliTest, AFlakyCaseThatKeepsFailingRunsThreeTimesInFreshProcesses) {
  WriteExpectations("flaky rt.device.perf/flaky_once\n");
  const CliRun run = RunCli(RunArgs({"--mode", "perf", "--expect", expect_, "--filter", kFlaky, "--profile", "full",
                                     "--perf-budget-ms", "2.5", "--cold-cache"}),
                            {{"FAKE_SUITE_FLAKY_DIR", dir_}, {"FAKE_SUITE_FLAKY_FAILURES", "9"}});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  const json report = ReadJson(out_);
  ExpectValid(report);
  const json flaky = FindResult(report, kFlaky);
  EXPECT_EQ(flaky["status"], "fail");
  EXPECT_EQ(report["expectations"]["flaky"][0]["attempts"], 3);
  EXPECT_EQ(report["expectations"]["flaky"][0]["status"], "fail");
  const std::string message = flaky["message"];
  EXPECT_NE(message.find("failing attempt 3"), std::string::npos) << message;
  // The rerun command of a perf case carries the perf settings, never --expect.
  const std::string rerun = std::string("rerun: ") + INFINICTS_TEST_CLI + " run --backend " + FakeBackendDir() +
                            " --device cpu --suite rt --mode perf --profile full --perf-budget-ms 2.5 --cold-cache"
                            " --filter " + kFlaky;
  EXPECT_EQ(message.substr(message.size() - std::min(message.size(), rerun.size())), rerun) << message;

  std::ifstream attempts(dir_ + "/flaky_once.attempts");
  std::set<std::string> pids;
  for (std::string line; std::getline(attempts, line);) pids.insert(line);
  EXPECT_EQ(pids.size(), 3u) << "each attempt runs in a fresh process";
}

}  // namespace
}  // namespace infinicts
