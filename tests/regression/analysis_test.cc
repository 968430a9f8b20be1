// Status changes, missing cases, accuracy drift and the like-for-like warnings.
#include <gtest/gtest.h>

#include "regression/compare_reports.h"
#include "regression/run_identity.h"
#include "regression/status_change.h"
#include "report/report_schema.h"
#include "synthetic_report.h"

namespace infinicts::regression {
namespace {

using report::Status;
using testing::SyntheticReport;

Comparison Compare(const SyntheticReport &base, const SyntheticReport &next) {
  return CompareReports(base.json(), next.json(), {"base.json", "new.json", 0.05});
}

const StatusChange *ChangeOf(const Comparison &comparison, const std::string &id) {
  for (const StatusChange &change : comparison.status_changes) {
    if (change.id == id) return &change;
  }
  return nullptr;
}

TEST(SyntheticReport, IsAValidReport) {
  SyntheticReport report;
  report.Case("rt.memory.conformance/a", "pass").PerfSamples("op.add.perf/x", {1, 2, 3}).Incomplete();
  EXPECT_TRUE(report::ValidateReport(report.json()).empty()) << report.json().dump(2);
}

TEST(StatusChange, ClassifiesEveryMove) {
  EXPECT_EQ(ClassifyStatusChange(Status::kPass, Status::kPass), std::nullopt);
  for (Status before : {Status::kPass, Status::kXfail, Status::kSkip, Status::kUnsupported}) {
    for (Status after : {Status::kFail, Status::kBlocked, Status::kCrash, Status::kTimeout})
      EXPECT_EQ(ClassifyStatusChange(before, after), StatusChangeKind::kNewlyFailing)
          << report::StatusName(before) << " -> " << report::StatusName(after);
  }
  EXPECT_EQ(ClassifyStatusChange(Status::kPass, Status::kUnsupported), StatusChangeKind::kLostCapability);
  for (Status before : {Status::kFail, Status::kCrash, Status::kTimeout, Status::kUnsupported, Status::kSkip,
                        Status::kXfail})
    EXPECT_EQ(ClassifyStatusChange(before, Status::kPass), StatusChangeKind::kNewlyPassing);
  EXPECT_EQ(ClassifyStatusChange(Status::kFail, Status::kCrash), StatusChangeKind::kOtherChange);
  EXPECT_EQ(ClassifyStatusChange(Status::kPass, Status::kSkip), StatusChangeKind::kNoLongerRun);
  EXPECT_TRUE(IsRegression(StatusChangeKind::kNoLongerRun));
  EXPECT_EQ(ClassifyStatusChange(Status::kBlocked, Status::kFail), StatusChangeKind::kOtherChange);
  EXPECT_EQ(ClassifyStatusChange(Status::kPass, Status::kXfail), StatusChangeKind::kOtherChange);
  EXPECT_EQ(ClassifyStatusChange(Status::kSkip, Status::kUnsupported), StatusChangeKind::kOtherChange);
}

TEST(Conformance, RegressionsAreNewFailuresAndLostCapabilities) {
  SyntheticReport base, next;
  base.Case("op.add.conformance/a", "pass").Case("op.add.conformance/b", "pass").Case("op.add.conformance/c", "fail");
  base.Case("op.add.conformance/d", "crash").Case("op.add.conformance/e", "pass");
  next.Case("op.add.conformance/a", "fail").Case("op.add.conformance/b", "unsupported").Case("op.add.conformance/c", "pass");
  next.Case("op.add.conformance/d", "fail").Case("op.add.conformance/e", "pass");
  const Comparison comparison = Compare(base, next);
  EXPECT_EQ(comparison.matched, 5u);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/a")->kind, StatusChangeKind::kNewlyFailing);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/a")->message, "what went wrong | <here>");
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/b")->kind, StatusChangeKind::kLostCapability);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/c")->kind, StatusChangeKind::kNewlyPassing);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/d")->kind, StatusChangeKind::kOtherChange);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/e"), nullptr);
  EXPECT_EQ(comparison.Regressions(), 2u);
  // Regressions come first.
  EXPECT_EQ(comparison.status_changes.front().id, "op.add.conformance/a");
}

TEST(Conformance, IdenticalReportsHaveNoFinding) {
  SyntheticReport report;
  report.Case("op.add.conformance/a", "pass").Case("op.add.conformance/b", "fail");
  report.PerfPercentiles("op.add.perf/x", 1.0, 0.9, 1.1);
  const Comparison comparison = Compare(report, report);
  EXPECT_TRUE(comparison.status_changes.empty());
  EXPECT_TRUE(comparison.warnings.empty());
  EXPECT_EQ(comparison.Regressions(), 0u);
  ASSERT_EQ(comparison.perf.size(), 1u);
  EXPECT_EQ(comparison.perf[0].verdict, PerfVerdict::kUnchanged);
}

TEST(Conformance, CasesInOneReportOnlyAreAddedRemovedOrMissing) {
  SyntheticReport base, next;
  base.Case("op.add.conformance/kept", "pass").Case("op.add.conformance/gone", "pass");
  base.Case("op.add.conformance/failed", "fail");
  next.Case("op.add.conformance/kept", "pass").Case("op.add.conformance/new", "fail");
  const Comparison comparison = Compare(base, next);
  // A passing case without a new result is lost, even from a complete run: the gate cannot vouch for it.
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/gone")->kind, StatusChangeKind::kMissing);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/failed")->kind, StatusChangeKind::kRemoved);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/new")->kind, StatusChangeKind::kAdded);
  // A new case that fails has no baseline to regress from.
  EXPECT_EQ(comparison.Regressions(), 1u);
}

TEST(Conformance, PassToSkipUnsupportedOrBlockedIsARegression) {
  SyntheticReport base, next;
  base.Case("op.add.conformance/a", "pass").Case("op.add.conformance/b", "pass").Case("op.add.conformance/c", "pass");
  next.Case("op.add.conformance/a", "skip").Case("op.add.conformance/b", "unsupported").Case("op.add.conformance/c", "blocked");
  const Comparison comparison = Compare(base, next);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/a")->kind, StatusChangeKind::kNoLongerRun);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/b")->kind, StatusChangeKind::kLostCapability);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/c")->kind, StatusChangeKind::kNewlyFailing);
  EXPECT_EQ(comparison.Regressions(), 3u);
}

TEST(Conformance, PassingCasesAnIncompleteRunNeverReachedAreMissing) {
  SyntheticReport base, next;
  base.Case("op.add.conformance/a", "pass").Case("op.add.conformance/b", "pass").Case("op.add.conformance/c", "fail");
  next.Case("op.add.conformance/a", "pass").Incomplete();
  const Comparison comparison = Compare(base, next);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/b")->kind, StatusChangeKind::kMissing);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/b")->new_status, "");
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/c")->kind, StatusChangeKind::kRemoved);
  EXPECT_EQ(comparison.Regressions(), 1u);
  EXPECT_FALSE(comparison.next.complete);
  ASSERT_EQ(comparison.warnings.size(), 1u);
  EXPECT_NE(comparison.warnings[0].find("new run did not complete"), std::string::npos);
}

TEST(Conformance, AnIncompleteBaselineIsFlagged) {
  SyntheticReport base, next;
  base.Case("op.add.conformance/a", "pass").Incomplete();
  next.Case("op.add.conformance/a", "pass");
  const Comparison comparison = Compare(base, next);
  ASSERT_EQ(comparison.warnings.size(), 1u);
  EXPECT_NE(comparison.warnings[0].find("baseline run did not complete"), std::string::npos);
}

TEST(Conformance, ARepeatedIdIsWarnedAboutAndItsLastResultCounts) {
  SyntheticReport base, next;
  base.Case("op.add.conformance/a", "pass");
  next.Case("op.add.conformance/a", "pass").Case("op.add.conformance/a", "fail");
  const Comparison comparison = Compare(base, next);
  EXPECT_EQ(ChangeOf(comparison, "op.add.conformance/a")->kind, StatusChangeKind::kNewlyFailing);
  ASSERT_EQ(comparison.warnings.size(), 1u);
  EXPECT_NE(comparison.warnings[0].find("repeats 1 case id"), std::string::npos);
}

TEST(Accuracy, DriftIsInformationUntilTheCaseFails) {
  SyntheticReport base, next;
  base.Case("op.gemm.accuracy/a", "pass", {{"max_abs_err", 1e-6}, {"max_ulp", 1.0}});
  base.Case("op.gemm.accuracy/b", "pass", {{"max_abs_err", 0.0}, {"max_rel_err", 1e-7}});
  base.Case("op.gemm.accuracy/c", "pass", {{"max_abs_err", 1e-3}});
  base.Case("op.gemm.accuracy/d", "pass", {{"max_abs_err", nullptr}});
  next.Case("op.gemm.accuracy/a", "pass", {{"max_abs_err", 4e-6}, {"max_ulp", 1.0}});
  next.Case("op.gemm.accuracy/b", "pass", {{"max_abs_err", 1e-9}, {"max_rel_err", 1e-7}});
  next.Case("op.gemm.accuracy/c", "pass", {{"max_abs_err", 5e-4}});
  next.Case("op.gemm.accuracy/d", "pass", {{"max_abs_err", 1.0}});
  Comparison comparison = Compare(base, next);
  EXPECT_EQ(comparison.accuracy_compared, 3u);  // d's baseline value is null
  ASSERT_EQ(comparison.accuracy_drifts.size(), 3u);  // the unchanged ones are left out
  EXPECT_EQ(comparison.accuracy_drifts[0].id, "op.gemm.accuracy/b");  // from 0: infinite growth
  EXPECT_TRUE(std::isinf(comparison.accuracy_drifts[0].ratio));
  EXPECT_EQ(comparison.accuracy_drifts[1].id, "op.gemm.accuracy/a");
  EXPECT_EQ(comparison.accuracy_drifts[1].metric, "max_abs_err");
  EXPECT_NEAR(comparison.accuracy_drifts[1].ratio, 4.0, 1e-9);
  EXPECT_EQ(comparison.accuracy_drifts[2].id, "op.gemm.accuracy/c");
  EXPECT_NEAR(comparison.accuracy_drifts[2].ratio, 0.5, 1e-9);
  EXPECT_EQ(comparison.Regressions(), 0u);

  SyntheticReport failing;
  failing.Case("op.gemm.accuracy/a", "fail", {{"max_abs_err", 1.0}, {"max_ulp", 1e6}});
  comparison = Compare(base, failing);
  EXPECT_EQ(comparison.accuracy_drifts.front().new_status, "fail");
  // a fails; b, c and d passed and have no result in `failing`: each is missing.
  EXPECT_EQ(comparison.Regressions(), 4u);
  EXPECT_EQ(comparison.CountOf(StatusChangeKind::kNewlyFailing), 1u);
}

TEST(LikeForLike, EveryDifferenceIsWarnedAbout) {
  SyntheticReport base, next;
  base.Argv({"infinicts", "run", "--mode", "perf"});
  next.Host("Other CPU", 16).DeviceType("nvidia").Argv({"infinicts", "run", "--profile=full"});
  const std::vector<std::string> warnings = LikeForLikeWarnings(base.json(), next.json());
  ASSERT_EQ(warnings.size(), 4u);
  EXPECT_EQ(warnings[0], "hosts' cpu differ: baseline Test CPU, new Other CPU");
  EXPECT_EQ(warnings[1], "hosts' cores differ: baseline 2, new 16");
  EXPECT_EQ(warnings[2], "device types differ: baseline cpu, new nvidia");
  EXPECT_EQ(warnings[3], "perf profiles differ: baseline quick, new full");
  EXPECT_TRUE(LikeForLikeWarnings(base.json(), base.json()).empty());
}

TEST(LikeForLike, AnotherToolVersionOrBackendBuildIsNamedFirst) {
  SyntheticReport base, next;
  nlohmann::json next_json = next.json();
  next_json["tool"]["version"] = "0.2.0";
  next_json["tool"]["git"] = "abc1234";
  next_json["backend"]["exported"].push_back("infinirtMalloc");
  const std::vector<std::string> warnings = LikeForLikeWarnings(base.json(), next_json);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0], "infinicts versions differ: baseline 0.1.0, new 0.2.0");
  EXPECT_EQ(warnings[1], "infinicts builds (git) differ: baseline test, new abc1234");
  EXPECT_EQ(warnings[2], "backend builds differ: the baseline exports 1 functions, the new 2, not the same ones");
}

TEST(LikeForLike, TheProfileComesFromTheCommandLine) {
  EXPECT_EQ(ProfileOf(SyntheticReport().json()), "quick");
  EXPECT_EQ(ProfileOf(SyntheticReport().Argv({"infinicts", "run", "--profile", "full"}).json()), "full");
  EXPECT_EQ(ProfileOf(SyntheticReport().Argv({"infinicts", "run", "--profile=full"}).json()), "full");
}

}  // namespace
}  // namespace infinicts::regression
