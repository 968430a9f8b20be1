// End-to-end: what the user types is checked strictly (docs/usage.md "Commands"): numbers,
// globs, environment variables, typos; `list` counts; `show` prints a case; gaps exit 1.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_fixture.h"

namespace infinicts {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::FakeBackendDir;
using testing_support::RunCli;

class InputCliTest : public testing_support::CliFixture {
 protected:
  InputCliTest() : CliFixture("input_") {}

  // Exit 2 with one line on stderr that holds `says`.
  static void ExpectRefused(const CliRun &run, const std::string &says, const std::string &what) {
    EXPECT_EQ(run.exit_code, 2) << what << ": " << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << what << ": " << run.err;
    EXPECT_NE(run.err.find(says), std::string::npos) << what << ": " << run.err;
    EXPECT_LT(run.err.size(), 300u) << what << ": " << run.err;
  }
};

TEST_F(InputCliTest, NumbersThatAreNotFiniteOrInRangeAreRefused) {
  for (const char *value : {"nan", "inf", "1e10", "1e-9", "-5", "abc", "5s", "1e400"}) {
    ExpectRefused(RunCli(RunArgs({"--timeout", value})), "--timeout", std::string("--timeout ") + value);
  }
  ExpectRefused(RunCli(RunArgs({"--timeout", "1e10"})), "outside 0.01 to 86400 seconds", "--timeout 1e10");
  ExpectRefused(RunCli(RunArgs({"--perf-budget-ms", "nan"})), "--perf-budget-ms", "--perf-budget-ms nan");
  ASSERT_EQ(RunCli(RunArgs({"--quiet"})).exit_code, 1);
  ExpectRefused(RunCli({"compare", out_, out_, "--threshold", "nan"}), "--threshold", "--threshold nan");
  EXPECT_EQ(RunCli(RunArgs({"--timeout", "2.5", "--quiet"})).exit_code, 1) << "a valid timeout was refused";
}

TEST_F(InputCliTest, TheCpuReferencesEnvironmentIsCheckedBeforeTheRun) {
  for (const char *value : {"abc", "-1", "100000", ""}) {
    ExpectRefused(RunCli(RunArgs({}), {{"INFINICTS_CPU_DEVICES", value}}), "INFINICTS_CPU_DEVICES",
                  std::string("INFINICTS_CPU_DEVICES=") + value);
  }
  for (const char *value : {"banana", "0", "12X", "99999999999T"}) {
    ExpectRefused(RunCli(RunArgs({}), {{"INFINICTS_CPU_DEVICE_MEMORY", value}}), "INFINICTS_CPU_DEVICE_MEMORY",
                  std::string("INFINICTS_CPU_DEVICE_MEMORY=") + value);
  }
  ExpectRefused(RunCli({"info", "--backend", FakeBackendDir(), "--device", "cpu"}, {{"INFINICTS_CPU_SYNC", "yes"}}),
                "INFINICTS_CPU_SYNC", "INFINICTS_CPU_SYNC=yes");
  EXPECT_EQ(RunCli(RunArgs({"--quiet"}), {{"INFINICTS_CPU_DEVICES", "3"}, {"INFINICTS_CPU_DEVICE_MEMORY", "64M"}})
                .exit_code,
            1);
}

TEST_F(InputCliTest, AMalformedGlobIsRefused) {
  ExpectRefused(RunCli(RunArgs({"--filter", "["})), "never closed", "run --filter [");
  ExpectRefused(RunCli({"list", "--filter", "rt.*,-rt.[mem"}), "never closed", "list --filter -rt.[mem");
  ExpectRefused(RunCli({"list", "--filter", "rt\\"}), "backslash", "list --filter rt\\");
  EXPECT_EQ(RunCli({"list", "--filter", "rt.[de]*"}).exit_code, 0);
  EXPECT_EQ(RunCli({"list", "--filter", "rt.[]x]*"}).exit_code, 2) << "no case matches, but the glob is fine";
}

TEST_F(InputCliTest, ATypoNamesTheNearestCommandOrFlag) {
  ExpectRefused(RunCli({"rn", "--backend", FakeBackendDir()}), "did you mean `infinicts run`?", "rn");
  ExpectRefused(RunCli({"reprot", "r.json"}), "did you mean `infinicts report`?", "reprot");
  ExpectRefused(RunCli({"frobnicate"}), "'frobnicate' is not a command", "frobnicate");
  ExpectRefused(RunCli(RunArgs({"--tiemout", "5"})), "did you mean --timeout?", "--tiemout");
  ExpectRefused(RunCli({"list", "--fliter", "rt.*"}), "did you mean --filter?", "--fliter");
}

TEST_F(InputCliTest, ListCountsAndSaysWhenNothingMatches) {
  const CliRun all = RunCli({"list"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(std::count(all.out.begin(), all.out.end(), '\n'), 11);
  EXPECT_EQ(all.err, "11 cases\n");
  const CliRun some = RunCli({"list", "--filter", "rt.memory.*"});
  EXPECT_EQ(some.err, "4 cases (11 without --filter)\n");
  ExpectRefused(RunCli({"list", "--filter", "nothing.*"}), "no case matches", "list --filter nothing.*");
  const CliRun long_list = RunCli({"list", "--long", "--filter", "rt.memory.conformance/wrong_value"});
  EXPECT_EQ(long_list.out, "rt.memory.conformance/wrong_value\tRT-MEM-1\t{}\n") << long_list.out;
}

TEST_F(InputCliTest, ShowPrintsOneCasesWholeRecord) {
  ASSERT_EQ(RunCli(RunArgs({"--quiet"})).exit_code, 1);
  const CliRun run = RunCli({"show", "rt.memory.conformance/wrong_value", out_});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const json record = json::parse(run.out, nullptr, false);
  ASSERT_TRUE(record.is_object()) << run.out;
  EXPECT_EQ(record["status"], "fail");
  EXPECT_NE(record["message"].get<std::string>().find("rerun: "), std::string::npos);
  ExpectRefused(RunCli({"show", "rt.no.such/case", out_}), "no case of", "show of a missing id");
}

TEST_F(InputCliTest, AHostileDeviceCountIsRefusedNeverAllocated) {
  for (const char *count : {"2147483647", "-5"}) {
    ExpectRefused(RunCli(RunArgs({}), {{"FAKE_RT_CPU_DEVICES", count}}), "not a device count",
                  std::string("a backend answering ") + count + " devices");
  }
}

TEST_F(InputCliTest, ASuiteWhoseLibraryIsMissingIsNotRunAndAskingForItIsExitTwo) {
  ExpectRefused(RunCli(RunArgs({"--suite", "op"})), "it has no libinfiniop.so", "--suite op without libinfiniop.so");
  const CliRun run = RunCli(RunArgs({"--quiet"}));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.out.find("missing libinfiniop.so, libinfiniccl.so: their suites are not run"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("not run: the backend has no libinfiniop.so"), std::string::npos) << run.out;
  const json report = testing_support::ReadJson(out_);
  EXPECT_EQ(report["backend"]["missing_libraries"], json({"libinfiniop.so", "libinfiniccl.so"}));
  EXPECT_EQ(report["summary"]["level_verdicts"]["minimal"], "not reached") << "a missing library is no narrowing";
}

TEST_F(InputCliTest, ALevelThatCannotBeJudgedExitsOne) {
  const CliRun run = RunCli({"run", "--backend", FakeBackendDir(), "--device", "nvidia", "--allow-no-device", "--level",
                             "minimal", "--out", out_});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("--level minimal was not judged"), std::string::npos) << run.err;
}

TEST_F(InputCliTest, AMergeWithAShardMissingExitsOneUnlessAllowed) {
  const std::string first = dir_ + "/s1.json", merged = dir_ + "/all.json";
  ASSERT_EQ(RunCli({"run", "--backend", FakeBackendDir(), "--device", "cpu", "--quiet", "--shard", "1/2", "--filter",
                    "rt.device.*", "--out", first})
                .exit_code,
            0);
  const CliRun partial = RunCli({"merge", first, "--out", merged});
  EXPECT_EQ(partial.exit_code, 1) << partial.err;
  EXPECT_NE(partial.err.find("shard 2/2 missing"), std::string::npos) << partial.err;
  const CliRun allowed = RunCli({"merge", first, "--out", merged, "--allow-partial"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
}

}  // namespace
}  // namespace infinicts
