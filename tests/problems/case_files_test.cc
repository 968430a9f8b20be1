// The case files' reader (suites/op/common/case_files.h): which file a subject's set comes
// from, and what it refuses.
#include "common/case_files.h"

#include <gtest/gtest.h>

namespace infinicts::op_cases {
namespace {

const std::vector<CaseFile> kFiles = {
    {"suites/op/cases/gemm.accuracy.cases", "# gemm's accuracy problems\ngemm f32 m=7\n\ngemm f16 m=3 n=5\n"},
    {"suites/op/cases/gemm.conformance.cases", "gemm f64\n"},
    {"suites/op/cases/rope.accuracy.cases", "# nothing yet\n"},
    {"suites/op/cases/conv.accuracy.cases", "conv f32\ngemm f32\n"},
};

TEST(CaseFiles, ASetComesFromItsOwnFileInFileOrder) {
  std::vector<std::string> errors;
  const auto lines = CaseFileLines(kFiles, "gemm", kAccuracySet, &errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].line, "f32 m=7");
  EXPECT_EQ(lines[1].line, "f16 m=3 n=5");
  EXPECT_EQ(lines[1].where, "suites/op/cases/gemm.accuracy.cases:4");
  const auto conformance = CaseFileLines(kFiles, "gemm", kConformanceSet, &errors);
  ASSERT_EQ(conformance.size(), 1u);
  EXPECT_EQ(conformance[0].line, "f64");
}

TEST(CaseFiles, AnotherOperatorsLineIsAnError) {
  std::vector<std::string> errors;
  const auto lines = CaseFileLines(kFiles, "conv", kAccuracySet, &errors);
  EXPECT_EQ(lines.size(), 1u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "suites/op/cases/conv.accuracy.cases:2: a line of gemm in conv's case file");
}

TEST(CaseFiles, AnEmptyOrMissingFileIsAnError) {
  std::vector<std::string> errors;
  EXPECT_TRUE(CaseFileLines(kFiles, "rope", kAccuracySet, &errors).empty());
  EXPECT_TRUE(CaseFileLines(kFiles, "rope", kConformanceSet, &errors).empty());
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "suites/op/cases/rope.accuracy.cases holds no problem line");
  EXPECT_NE(errors[1].find("no case file suites/op/cases/rope.conformance.cases"), std::string::npos) << errors[1];
}

}  // namespace
}  // namespace infinicts::op_cases
