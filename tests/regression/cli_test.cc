// `infinicts compare` as a user runs it: exit codes, the output files, unreadable reports.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "synthetic_report.h"

namespace infinicts::regression {
namespace {

using testing::SyntheticReport;

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

Outcome RunInfinicts(const std::string &arguments) {
  const std::string command = std::string(INFINICTS_TEST_CLI) + " " + arguments + " 2>&1";
  Outcome outcome;
  FILE *pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t read;
  while ((read = fread(buffer, 1, sizeof buffer, pipe)) > 0) outcome.output.append(buffer, read);
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

class CompareCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(INFINICTS_TEST_WORK_DIR) + "/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::system(("rm -rf '" + dir_ + "' && mkdir -p '" + dir_ + "'").c_str());
  }
  std::string Write(const std::string &name, const std::string &text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string Read(const std::string &name) {
    std::ifstream in(dir_ + "/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::string dir_;
};

TEST_F(CompareCli, SameReportExitsZero) {
  SyntheticReport report;
  report.Case("op.add.conformance/a", "pass").PerfPercentiles("op.add.perf/x", 1.0, 0.9, 1.1);
  const std::string path = Write("base.json", report.json().dump());
  const Outcome outcome = RunInfinicts("compare " + path + " " + path);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("No regression."), std::string::npos) << outcome.output;
}

TEST_F(CompareCli, ASlowdownExitsOneAndWritesBothPages) {
  SyntheticReport base, next;
  base.PerfSamples("op.add.perf/x", {1.0, 1.01, 0.99, 1.0});
  next.PerfSamples("op.add.perf/x", {2.0, 2.01, 1.99, 2.0});
  const std::string base_path = Write("base.json", base.json().dump());
  const std::string new_path = Write("new.json", next.json().dump());
  const Outcome outcome =
      RunInfinicts("compare " + base_path + " " + new_path + " --md " + dir_ + "/out/c.md --html " + dir_ + "/c.html");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("REGRESSION: 1 slowdown"), std::string::npos) << outcome.output;
  EXPECT_NE(Read("out/c.md").find("Slowdowns, largest first"), std::string::npos);
  EXPECT_NE(Read("c.html").find("op.add.perf/x"), std::string::npos);
  // A threshold above the change turns it into no change.
  EXPECT_EQ(RunInfinicts("compare " + base_path + " " + new_path + " --threshold 1.5").exit_code, 0);
}

TEST_F(CompareCli, EveryPositionalButTheLastIsABaseline) {
  SyntheticReport fast, slow, next;
  fast.PerfPercentiles("op.add.perf/x", 1.0, 0.99, 1.01).PerfPercentiles("op.add.perf/y", 1.0, 0.99, 1.01);
  slow.PerfPercentiles("op.add.perf/x", 1.5, 1.49, 1.51).PerfPercentiles("op.add.perf/y", 1.1, 1.09, 1.11);
  next.PerfPercentiles("op.add.perf/x", 2.0, 1.99, 2.01).PerfPercentiles("op.add.perf/y", 2.0, 1.99, 2.01);
  const std::string fast_path = Write("fast.json", fast.json().dump());
  const std::string slow_path = Write("slow.json", slow.json().dump());
  const std::string new_path = Write("new.json", next.json().dump());
  // x moved 1.6x, within its baselines' 1.5x spread (2.0 < 1.5 x 1.5); y moved 1.9x beyond its 1.1x.
  const Outcome outcome =
      RunInfinicts("compare " + fast_path + " " + slow_path + " " + new_path + " --md " + dir_ + "/c.md");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("baseline  " + slow_path), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("Performance (threshold 5%, 2 baselines): 2 cases timed in both; 1 slowdown, 0 speedups, "
                                "0 unchanged, 1 noise"),
            std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("slowdown  op.add.perf/y  ×1.90 (+90.5%)  1.05 ms [0.99, 1.11] -> 2 ms [1.99, 2.01]  "
                                "beyond between 2 baselines ×1.10, within run ×1.01"),
            std::string::npos)
      << outcome.output;
  const std::string markdown = Read("c.md");
  EXPECT_NE(markdown.find("Judged against 2 baselines"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| baseline 2 |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("between 2 baselines ×1.10, within run ×1.01"), std::string::npos) << markdown;
  // Against the first baseline alone, both are slowdowns.
  EXPECT_NE(RunInfinicts("compare " + fast_path + " " + new_path).output.find("REGRESSION: 2 slowdowns"),
            std::string::npos);
}

TEST_F(CompareCli, ANewlyFailingCaseExitsOne) {
  const std::string base = Write("base.json", SyntheticReport().Case("rt.memory.conformance/a", "pass").json().dump());
  const std::string next = Write("new.json", SyntheticReport().Case("rt.memory.conformance/a", "crash").json().dump());
  const Outcome outcome = RunInfinicts("compare " + base + " " + next);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("newly failing  rt.memory.conformance/a  pass -> crash"), std::string::npos)
      << outcome.output;
}

TEST_F(CompareCli, APassThatIsNowSkippedExitsOneAndOtherDevicesAreNamed) {
  const std::string base = Write("base.json", SyntheticReport().Case("rt.memory.conformance/a", "pass").json().dump());
  const std::string next = Write(
      "new.json", SyntheticReport().DeviceType("nvidia").Case("rt.memory.conformance/a", "skip").json().dump());
  const Outcome outcome = RunInfinicts("compare " + base + " " + next);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("no longer run  rt.memory.conformance/a  pass -> skip"), std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("device types differ: baseline cpu, new nvidia"), std::string::npos) << outcome.output;
}

TEST_F(CompareCli, ReportsWithNoCaseInCommonExitTwo) {
  const std::string base = Write("base.json", SyntheticReport().Case("rt.memory.conformance/a", "pass").json().dump());
  const std::string next = Write("new.json", SyntheticReport().Case("op.add.conformance/b", "pass").json().dump());
  const Outcome outcome = RunInfinicts("compare " + base + " " + next);
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("have no case in common (1 and 1 results): nothing to compare"), std::string::npos)
      << outcome.output;
}

TEST_F(CompareCli, AVersionOneReportStillCompares) {
  nlohmann::json old = SyntheticReport().Case("rt.memory.conformance/a", "pass").json();
  old["schema_version"] = 1;
  old["summary"].erase("blocked");
  const std::string base = Write("base.json", old.dump());
  const std::string next = Write("new.json", SyntheticReport().Case("rt.memory.conformance/a", "pass").json().dump());
  EXPECT_EQ(RunInfinicts("compare " + base + " " + next).exit_code, 0);
}

TEST_F(CompareCli, UnreadableReportsExitTwoWithTheReason) {
  const std::string good = Write("good.json", SyntheticReport().json().dump());
  const std::string not_json = Write("bad.json", "{ not json");
  nlohmann::json invalid = SyntheticReport().json();
  invalid.erase("summary");
  const std::string not_report = Write("invalid.json", invalid.dump());

  Outcome outcome = RunInfinicts("compare " + good + " " + not_json);
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("bad.json: not JSON"), std::string::npos) << outcome.output;
  outcome = RunInfinicts("compare " + not_report + " " + good);
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("not a valid infinicts report"), std::string::npos) << outcome.output;
  EXPECT_EQ(RunInfinicts("compare " + good + " " + dir_ + "/absent.json").exit_code, 2);
  EXPECT_EQ(RunInfinicts("compare " + good).exit_code, 2);
  EXPECT_EQ(RunInfinicts("compare " + good + " " + good + " --threshold -1").exit_code, 2);
}

}  // namespace
}  // namespace infinicts::regression
