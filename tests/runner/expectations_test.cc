#include <gtest/gtest.h>

#include <fstream>

#include "run_cli.h"
#include "runner/expectations.h"

namespace infinicts::runner {
namespace {

using report::CaseResult;
using report::Status;

Expectations ParseOrFail(const std::string &text) {
  Expectations expectations;
  std::string error;
  EXPECT_TRUE(Expectations::Parse(text, "known.txt", &expectations, &error)) << error;
  return expectations;
}

std::string ParseError(const std::string &text) {
  Expectations expectations;
  std::string error;
  EXPECT_FALSE(Expectations::Parse(text, "known.txt", &expectations, &error)) << text;
  return error;
}

TEST(Expectations, ParsesEntriesReasonsAndLineNumbers) {
  const Expectations expectations = ParseOrFail(
      "# known problems\n"
      "\n"
      "xfail op.gemm.*/f16/*   # f16 rounding, ticket 12\n"
      "  flaky\trt.event.perf/*\r\n"
      "skip ccl.*#no second device\n"
      "   # an indented comment\n"
      "xfail rt.memory.conformance/memcpy/*\n");
  ASSERT_EQ(expectations.entries().size(), 4u);
  const Expectation &first = expectations.entries()[0];
  EXPECT_EQ(first.kind, ExpectationKind::kXfail);
  EXPECT_EQ(first.glob, "op.gemm.*/f16/*");
  EXPECT_EQ(first.reason, "f16 rounding, ticket 12");
  EXPECT_EQ(first.line, 3);
  EXPECT_EQ(expectations.entries()[1].kind, ExpectationKind::kFlaky);
  EXPECT_EQ(expectations.entries()[1].glob, "rt.event.perf/*");
  EXPECT_EQ(expectations.entries()[1].reason, "");
  EXPECT_EQ(expectations.entries()[2].reason, "no second device");
  EXPECT_EQ(expectations.entries()[3].line, 7);
  EXPECT_EQ(expectations.Where(first), "known.txt:3");
}

TEST(Expectations, FindsTheFirstEntryOfAKindThatMatches) {
  const Expectations expectations = ParseOrFail(
      "xfail op.gemm.accuracy/*\n"
      "xfail op.*\n"
      "skip op.gemm.accuracy/f16/*\n");
  const Expectation *xfail = expectations.Find(ExpectationKind::kXfail, "op.gemm.accuracy/f16/m1");
  ASSERT_NE(xfail, nullptr);
  EXPECT_EQ(xfail->line, 1);
  EXPECT_EQ(expectations.Find(ExpectationKind::kXfail, "op.add.accuracy/f16")->line, 2);
  EXPECT_EQ(expectations.Find(ExpectationKind::kXfail, "rt.memory.conformance/a"), nullptr);
  EXPECT_EQ(expectations.Find(ExpectationKind::kFlaky, "op.gemm.accuracy/f16/m1"), nullptr);
  EXPECT_EQ(expectations.Find(ExpectationKind::kSkip, "op.gemm.accuracy/f16/m1")->line, 3);
  EXPECT_EQ(expectations.Find(ExpectationKind::kSkip, "op.gemm.accuracy/f32/m1"), nullptr);
  EXPECT_TRUE(ParseOrFail("").entries().empty());
}

TEST(Expectations, AMalformedLineNamesFileAndLine) {
  EXPECT_EQ(ParseError("xfail a\nfail b\n"),
            "known.txt:2: unknown kind 'fail' (expected xfail, flaky or skip followed by a glob)");
  EXPECT_EQ(ParseError("\n\nskip   # why\n"), "known.txt:3: 'skip' needs a glob of case ids");
  EXPECT_EQ(ParseError("flaky a b # why\n"),
            "known.txt:1: one glob per line, but 'b' follows 'a' (start a reason with '#')");
  EXPECT_EQ(ParseError("XFAIL a\n").rfind("known.txt:1: unknown kind 'XFAIL'", 0), 0u);
}

TEST(Expectations, LoadReadsAFileAndSaysWhenItCannot) {
  const std::string dir = testing_support::ScratchDir("expectations_load");
  const std::string path = dir + "/expect.txt";
  std::ofstream(path) << "skip rt.*  # all of it\n";
  Expectations expectations;
  std::string error;
  ASSERT_TRUE(Expectations::Load(path, &expectations, &error)) << error;
  EXPECT_EQ(expectations.file(), path);
  ASSERT_EQ(expectations.entries().size(), 1u);
  EXPECT_EQ(expectations.Where(expectations.entries()[0]), path + ":1");
  EXPECT_FALSE(Expectations::Load(dir + "/absent.txt", &expectations, &error));
  EXPECT_EQ(error, dir + "/absent.txt: cannot be read");
}

CaseResult Result(Status status, const std::string &message) {
  CaseResult result;
  result.id = "op.add.accuracy/f16";
  result.status = status;
  result.message = message;
  return result;
}

TEST(Expectations, XfailTurnsFailuresIntoXfailAndNotesAnUnexpectedPass) {
  const Expectations expectations = ParseOrFail("\nxfail op.add.*  # rounding\n");
  const Expectation &entry = expectations.entries()[0];
  for (Status failure : {Status::kFail, Status::kCrash, Status::kTimeout}) {
    CaseResult result = Result(failure, "expected 1, got 2");
    EXPECT_FALSE(ApplyXfail(expectations, entry, &result));
    EXPECT_EQ(result.status, Status::kXfail);
    EXPECT_EQ(result.message, "expected failure (known.txt:2): expected 1, got 2");
  }
  CaseResult passed = Result(Status::kPass, "");
  EXPECT_TRUE(ApplyXfail(expectations, entry, &passed));
  EXPECT_EQ(passed.status, Status::kPass);
  EXPECT_EQ(passed.message, "unexpected pass: listed as xfail in known.txt:2 (rounding)");
  for (Status other : {Status::kSkip, Status::kUnsupported}) {
    CaseResult result = Result(other, "why");
    EXPECT_FALSE(ApplyXfail(expectations, entry, &result));
    EXPECT_EQ(result.status, other);
    EXPECT_EQ(result.message, "why");
  }
}

TEST(Expectations, ASkippedCaseSaysWhereItIsListed) {
  const Expectations expectations = ParseOrFail("skip ccl.*  # one device only\nskip rt.*\n");
  cts::ListedCase listed;
  listed.id = "ccl.all_reduce.accuracy/f32";
  listed.suite = "ccl";
  listed.subject = "all_reduce";
  listed.mode = "accuracy";
  listed.clauses = {"CCL-AR-1"};
  const CaseResult result = SkippedResult(listed, expectations, expectations.entries()[0]);
  EXPECT_EQ(result.status, Status::kSkip);
  EXPECT_EQ(result.id, listed.id);
  EXPECT_EQ(result.clauses, listed.clauses);
  EXPECT_EQ(result.message, "listed as skip in known.txt:1 (one device only)");
  EXPECT_EQ(SkippedResult(listed, expectations, expectations.entries()[1]).message, "listed as skip in known.txt:2");
}

}  // namespace
}  // namespace infinicts::runner
