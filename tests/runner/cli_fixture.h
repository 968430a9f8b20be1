// The fixture of the end-to-end tests of the infinicts command: a scratch directory per
// test, the report path in it, and `infinicts run` on the fake suite and backend.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "report/report_schema.h"
#include "run_cli.h"

namespace infinicts::testing_support {

class CliFixture : public ::testing::Test {
 protected:
  // `scratch_prefix` keeps the directories of two fixtures with same-named tests apart.
  explicit CliFixture(std::string scratch_prefix = "") : scratch_prefix_(std::move(scratch_prefix)) {}

  static void SetUpTestSuite() { setenv("INFINICTS_SUITE_DIR", INFINICTS_TEST_SUITE_DIR, 1); }

  void SetUp() override {
    dir_ = ScratchDir(scratch_prefix_ + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    out_ = dir_ + "/report.json";
  }

  // infinicts run on the fake backend's CPU device, writing out_, then `extra`.
  std::vector<std::string> RunArgs(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--out", out_};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  static void ExpectValid(const nlohmann::json &report) {
    ASSERT_TRUE(report.is_object()) << "the report is not JSON";
    const auto violations = report::ValidateReport(report);
    EXPECT_TRUE(violations.empty()) << report::FormatViolations(violations);
  }

  std::string dir_, out_;

 private:
  std::string scratch_prefix_;
};

}  // namespace infinicts::testing_support
