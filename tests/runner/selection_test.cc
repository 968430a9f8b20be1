#include <gtest/gtest.h>

#include "runner/child_process.h"
#include "runner/rerun_command.h"
#include "runner/selection.h"

namespace infinicts::runner {
namespace {

cts::ListedCase Listed(const std::string &suite, const std::string &subject, const std::string &mode,
                       const std::string &test) {
  cts::ListedCase listed;
  listed.suite = suite;
  listed.subject = subject;
  listed.mode = mode;
  listed.id = suite + "." + subject + "." + mode + "/" + test;
  return listed;
}

std::vector<std::string> Ids(const std::vector<cts::ListedCase> &cases) {
  std::vector<std::string> ids;
  for (const auto &listed : cases) ids.push_back(listed.id);
  return ids;
}

TEST(CaseFilter, IncludesAndExcludesByGlob) {
  EXPECT_TRUE(CaseFilter().Matches("rt.memory.conformance/a"));
  const CaseFilter filter({"rt.*,op.gemm.*", "-rt.event.*"});
  EXPECT_TRUE(filter.Matches("rt.memory.conformance/a/b"));
  EXPECT_TRUE(filter.Matches("op.gemm.accuracy/f16/m1"));
  EXPECT_FALSE(filter.Matches("op.add.accuracy/f16"));
  EXPECT_FALSE(filter.Matches("rt.event.conformance/record"));
  const CaseFilter only_exclusions({"-*perf*"});
  EXPECT_TRUE(only_exclusions.Matches("rt.memory.conformance/a"));
  EXPECT_FALSE(only_exclusions.Matches("op.gemm.perf/f16"));
}

TEST(SelectCases, ByModeLevelAndFilter) {
  const std::vector<cts::ListedCase> cases = {
      Listed("rt", "memory", "conformance", "a"), Listed("rt", "event", "conformance", "b"),
      Listed("ccl", "all_reduce", "accuracy", "c"), Listed("op", "gemm", "perf", "d")};
  Selection selection;
  selection.modes = {"conformance", "accuracy"};
  EXPECT_EQ(Ids(SelectCases(cases, selection)), (std::vector<std::string>{"rt.memory.conformance/a", "rt.event.conformance/b",
                                                                          "ccl.all_reduce.accuracy/c"}));
  selection.level = "minimal";
  EXPECT_EQ(Ids(SelectCases(cases, selection)), std::vector<std::string>{"rt.memory.conformance/a"});
  selection.level = "advanced";
  selection.modes = {};
  selection.filter = CaseFilter({"*/d,*/b"});
  EXPECT_EQ(Ids(SelectCases(cases, selection)), (std::vector<std::string>{"rt.event.conformance/b", "op.gemm.perf/d"}));
}

TEST(RerunCommand, NamesTheCaseAloneAndQuotesWhatNeedsIt) {
  report::CaseResult result;
  result.id = "op.gemm.perf/f16/m128";
  result.suite = "op";
  result.mode = "perf";
  RerunContext context{"infinicts", {"build/lib", "/opt/my backend/libinfiniop.so"}, "nvidia", "0,1", "5"};
  EXPECT_EQ(RerunCommand(context, result),
            "infinicts run --backend build/lib --backend '/opt/my backend/libinfiniop.so' --device nvidia "
            "--device-ids 0,1 --timeout 5 --suite op --mode perf --filter op.gemm.perf/f16/m128");
  // Started by its path, the line names that path: `infinicts` need not be on PATH.
  context.program = "build/bin/infinicts";
  EXPECT_EQ(RerunCommand(context, result).rfind("build/bin/infinicts run --backend build/lib ", 0), 0u);
  // A side-by-side run's case exists only beside its other backend.
  context.against = {"ref/lib"};
  EXPECT_EQ(RerunCommand(context, result).rfind("build/bin/infinicts run --backend build/lib --backend "
                                                "'/opt/my backend/libinfiniop.so' --against ref/lib --device nvidia ", 0),
            0u);
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote("a*b"), "'a*b'");
}

TEST(RerunCommand, APerfCaseCarriesThePerfSettingsGiven) {
  report::CaseResult perf;
  perf.id = "rt.memory.perf/memcpy/d2d/bytes_1048576";
  perf.suite = "rt";
  perf.mode = "perf";
  RerunContext context{"infinicts", {"build/lib"}, "cpu", "", ""};
  EXPECT_EQ(RerunCommand(context, perf),
            "infinicts run --backend build/lib --device cpu --suite rt --mode perf --filter " + perf.id);
  context.profile = "quick";  // the default: nothing to carry
  EXPECT_EQ(RerunCommand(context, perf),
            "infinicts run --backend build/lib --device cpu --suite rt --mode perf --filter " + perf.id);
  context.profile = "full";
  context.perf_budget_ms = "250";
  context.cold_cache = true;
  EXPECT_EQ(RerunCommand(context, perf),
            "infinicts run --backend build/lib --device cpu --suite rt --mode perf --profile full "
            "--perf-budget-ms 250 --cold-cache --filter " + perf.id);
  report::CaseResult conformance = perf;
  conformance.id = "rt.memory.conformance/memcpy/d2d";
  conformance.mode = "conformance";
  EXPECT_EQ(RerunCommand(context, conformance),
            "infinicts run --backend build/lib --device cpu --suite rt --mode conformance --filter " + conformance.id);
}

TEST(OutputTail, KeepsTheLastBytesFromALineStart) {
  OutputTail tail(16);
  tail.Append("first line that is long\n");
  tail.Append("second\nthird\n");
  EXPECT_EQ(tail.Text(), "second\nthird\n");  // the last 16 bytes, less the cut line
  OutputTail short_tail(64);
  short_tail.Append("all of it");
  EXPECT_EQ(short_tail.Text(), "all of it");
}

TEST(DescribeWaitStatus, NamesSignalsAndCodes) {
  EXPECT_EQ(DescribeWaitStatus(11), "was killed by signal 11 (SIGSEGV)");  // raw wait status: WTERMSIG = 11
  EXPECT_EQ(DescribeWaitStatus(3 << 8), "exited with code 3");
}

}  // namespace
}  // namespace infinicts::runner
