// The checks of the detection tests must be able to fail: each is fed reports that
// break it in one way.
#include "check/report_checks.h"

#include <gtest/gtest.h>

namespace infinicts::fault::check {
namespace {

nlohmann::json Report(const std::vector<std::pair<std::string, std::string>> &results) {
  nlohmann::json report = {{"summary", {{"total", results.size()}}}, {"results", nlohmann::json::array()}};
  for (const auto &[id, status] : results) report["results"].push_back({{"id", id}, {"status", status}});
  return report;
}

TEST(FaultReportChecks, ParsesIdsFromJsonLinesAndFromWords) {
  const std::string output =
      "{\"id\":\"rt.memory.conformance/a\",\"clauses\":[]}\n"
      "  rt.stream.conformance/b   RT-STREAM-1\n"
      "\n"
      "2 cases\n"
      "op.gemm.accuracy/c\n";
  EXPECT_EQ(ParseListedIds(output, "rt"),
            (std::vector<std::string>{"rt.memory.conformance/a", "rt.stream.conformance/b"}));
}

TEST(FaultReportChecks, CompleteNeedsEveryListedCaseOnceAndTheTotal) {
  const std::vector<std::string> listed = {"rt.a", "rt.b"};
  EXPECT_TRUE(CheckComplete(Report({{"rt.a", "pass"}, {"rt.b", "crash"}}), listed).empty());
  EXPECT_FALSE(CheckComplete(Report({{"rt.a", "pass"}}), listed).empty());
  EXPECT_FALSE(CheckComplete(Report({{"rt.a", "pass"}, {"rt.b", "pass"}, {"rt.b", "pass"}}), listed).empty());
  EXPECT_FALSE(CheckComplete(Report({{"rt.a", "pass"}, {"rt.b", "pass"}, {"rt.c", "pass"}}), listed).empty());
  auto wrong_total = Report({{"rt.a", "pass"}, {"rt.b", "pass"}});
  wrong_total["summary"]["total"] = 3;
  EXPECT_FALSE(CheckComplete(wrong_total, listed).empty());
  EXPECT_FALSE(CheckComplete(Report({}), {}).empty());
}

TEST(FaultReportChecks, InvalidInputCrashesNeedTheMarkOnEveryMatchedCrash) {
  auto report = Report({{"rt.memory.conformance/malloc_null", "crash"}, {"rt.stream.conformance/create_null", "crash"}});
  report["results"][0]["crash_on_invalid_input"] = true;
  EXPECT_TRUE(CheckCrashedOnInvalidInput(report, {"rt.memory.conformance/malloc_null"}).empty());
  EXPECT_FALSE(CheckCrashedOnInvalidInput(report, {"rt.*"}).empty()) << "a crash on valid input";
  EXPECT_FALSE(CheckCrashedOnInvalidInput(report, {"rt.event.*"}).empty()) << "no match";
  EXPECT_FALSE(CheckCrashedOnInvalidInput(Report({{"rt.a", "fail"}}), {"rt.a"}).empty()) << "no crash";
}

TEST(FaultReportChecks, CaughtNeedsEveryMatchedCaseFailingAndAMatch) {
  const auto report = Report({{"rt.event.conformance/elapsed/1", "fail"}, {"rt.event.conformance/elapsed/2", "timeout"},
                              {"rt.event.conformance/query", "pass"}, {"rt.stream.conformance/x", "crash"}});
  EXPECT_TRUE(CheckCaught(report, {"rt.event.conformance/elapsed*", "rt.stream.*"}).empty());
  EXPECT_FALSE(CheckCaught(report, {"rt.event.*"}).empty());
  EXPECT_FALSE(CheckCaught(report, {"rt.memory.*"}).empty());
  EXPECT_FALSE(CheckCaught(report, {}).empty());
  EXPECT_FALSE(CheckCaught(Report({{"rt.a", "skip"}}), {"rt.a"}).empty());
  EXPECT_FALSE(CheckCaught(Report({{"rt.a", "unsupported"}}), {"rt.a"}).empty());
  EXPECT_FALSE(CheckCaught(Report({{"rt.a", "blocked"}}), {"rt.a"}).empty()) << "a blocked case caught nothing itself";
}

TEST(FaultReportChecks, EndedAsAndOthersPass) {
  const auto report = Report({{"op.add.conformance/two_streams/f16", "blocked"}, {"op.add.accuracy/x", "pass"},
                              {"rt.stream.conformance/create_distinct", "fail"}});
  EXPECT_TRUE(CheckEndedAs(report, {"op.*.conformance/two_streams/*"}, "blocked").empty());
  EXPECT_FALSE(CheckEndedAs(report, {"op.*"}, "blocked").empty());
  EXPECT_FALSE(CheckEndedAs(report, {"ccl.*"}, "blocked").empty());
  EXPECT_TRUE(CheckOthersPass(report, {"op.*.conformance/two_streams/*", "rt.stream.*"}).empty());
  EXPECT_FALSE(CheckOthersPass(report, {"op.*.conformance/two_streams/*"}).empty());
}

TEST(FaultReportChecks, RootCausesCountsTheReportsGroups) {
  nlohmann::json report = Report({{"rt.a", "fail"}});
  report["summary"]["root_causes"] = nlohmann::json::array({{{"status", "fail"}, {"count", 1}, {"message", "m"}}});
  EXPECT_TRUE(CheckRootCauses(report, 1).empty());
  EXPECT_FALSE(CheckRootCauses(report, 2).empty());
  EXPECT_FALSE(CheckRootCauses(Report({}), 1).empty());
}

TEST(FaultReportChecks, PartVerdictsAndMissingCapabilitiesReadTheSummary) {
  auto report = Report({{"ccl.all_gather_v.conformance/a", "unsupported"}});
  report["summary"]["parts"] = {{{"part", "ccl"}, {"verdict", "pass"}}};
  report["summary"]["missing_capabilities"] = {{{"part", "ccl"}, {"capability", "all_gather_v"}}};
  EXPECT_TRUE(CheckPartVerdicts(report, {"ccl=pass"}).empty());
  EXPECT_FALSE(CheckPartVerdicts(report, {"ccl=fail"}).empty());
  EXPECT_FALSE(CheckPartVerdicts(report, {"rt.event=pass"}).empty());
  EXPECT_TRUE(CheckMissingCapabilities(report, {"all_gather_v"}).empty());
  EXPECT_FALSE(CheckMissingCapabilities(report, {"reduce_scatter_v"}).empty());
  EXPECT_FALSE(CheckMissingCapabilities(Report({}), {"all_gather_v"}).empty());
}

TEST(FaultReportChecks, AllPassRefusesAnyOtherStatusAndAnEmptyReport) {
  EXPECT_TRUE(CheckAllPass(Report({{"rt.a", "pass"}, {"rt.b", "pass"}})).empty());
  for (const char *status : {"fail", "skip", "unsupported", "blocked", "crash", "timeout", "xfail"}) {
    EXPECT_FALSE(CheckAllPass(Report({{"rt.a", "pass"}, {"rt.b", status}})).empty()) << status;
  }
  EXPECT_FALSE(CheckAllPass(Report({})).empty());
}

TEST(FaultReportChecks, UnderMpirunOnlySkipsForWantOfRanksCountAsPassed) {
  auto report = Report({{"ccl.a", "pass"}, {"ccl.b", "skip"}});
  report["results"][1]["message"] = "needs 4 ranks (one per process); the run has 2";
  EXPECT_TRUE(CheckAllPass(report, true).empty());
  EXPECT_FALSE(CheckAllPass(report).empty());
  EXPECT_TRUE(CheckOthersPass(report, {}, true).empty());
  report["results"][1]["message"] = "needs 4 devices; the run has 2";
  EXPECT_FALSE(CheckAllPass(report, true).empty());
}

TEST(FaultReportChecks, MessagesMustNameWhatTheyAreToName) {
  auto report = Report({{"ccl.a", "fail"}, {"ccl.b", "pass"}});
  report["results"][0]["message"] = "wrong\n[ranks of 2] rank 1 fail";
  EXPECT_TRUE(CheckMessages(report, {"ccl.*"}, {"rank 1 fail"}, {"rank 0 fail"}).empty());
  EXPECT_FALSE(CheckMessages(report, {"ccl.*"}, {"rank 0 fail"}, {}).empty());
  EXPECT_FALSE(CheckMessages(report, {"ccl.*"}, {}, {"rank 1"}).empty());
}

}  // namespace
}  // namespace infinicts::fault::check
