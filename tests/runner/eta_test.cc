// The ETA takes each suite and mode at its own pace (cli/eta.h).
#include <gtest/gtest.h>

#include <string>

#include "cli/eta.h"

namespace infinicts::cli {
namespace {

std::string Id(const std::string &test, int i) { return test + "/case_" + std::to_string(i); }

// The table expects op accuracy cases of 1 ms that take 2 ms here, and collective cases of
// 10 ms that take 1 ms here: once both have shown their pace, what is left of each is held
// against its own pace, not against the mean of the two.
TEST(Eta, EachSuiteAndModeKeepsItsOwnPace) {
  EtaEstimate eta;
  for (int i = 0; i < 100; ++i) eta.Expect(Id("op.gemm.accuracy/oracle", i), 1.0);
  for (int i = 0; i < 100; ++i) eta.Expect(Id("ccl.all_reduce.conformance/exact", i), 10.0);
  for (int i = 0; i < 100; ++i) eta.CaseEnded(Id("op.gemm.accuracy/oracle", i), 0.002);
  for (int i = 0; i < 50; ++i) eta.CaseEnded(Id("ccl.all_reduce.conformance/exact", i), 0.001);
  ASSERT_TRUE(eta.RemainingSeconds().has_value());
  EXPECT_NEAR(*eta.RemainingSeconds(), 50 * 0.001, 1e-9);
}

// A suite not started yet is held against the pace of the run so far.
TEST(Eta, ASuiteNotStartedTakesTheRunsPace) {
  EtaEstimate eta;
  for (int i = 0; i < 100; ++i) eta.Expect(Id("rt.memory.conformance/copy", i), 2.0);
  for (int i = 0; i < 10; ++i) eta.Expect(Id("op.add.conformance/shapes", i), 4.0);
  for (int i = 0; i < 100; ++i) eta.CaseEnded(Id("rt.memory.conformance/copy", i), 0.006);  // 3x slower
  ASSERT_TRUE(eta.RemainingSeconds().has_value());
  EXPECT_NEAR(*eta.RemainingSeconds(), 10 * 0.004 * 3, 1e-9);
}

// A suite's first cases, before it settled, do not set its pace alone; without any expected
// duration, cases are taken as alike; a run done has nothing left.
TEST(Eta, UnsettledOrUnknownCasesAndTheEnd) {
  EtaEstimate eta;
  EXPECT_FALSE(eta.RemainingSeconds().has_value());
  for (int i = 0; i < 4; ++i) eta.Expect(Id("x.y.perf/t", i), 0.0);
  eta.CaseEnded(Id("x.y.perf/t", 0), 1.0);
  ASSERT_TRUE(eta.RemainingSeconds().has_value());
  EXPECT_NEAR(*eta.RemainingSeconds(), 3.0, 1e-9);
  for (int i = 1; i < 4; ++i) eta.CaseEnded(Id("x.y.perf/t", i), 1.0);
  EXPECT_FALSE(eta.RemainingSeconds().has_value());
}

}  // namespace
}  // namespace infinicts::cli
