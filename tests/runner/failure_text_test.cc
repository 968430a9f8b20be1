// The first line of a failure: GoogleTest's assertion texts reworded, and the clause in front.
#include <gtest/gtest.h>

#include "cts/failure_text.h"
#include "cts/root_cause.h"

namespace infinicts::cts {
namespace {

TEST(PlainFailure, AnAssertionResultsExplanationSaysWhatCameBack) {
  EXPECT_EQ(PlainFailure("Value of: SameBytes(a, b, n)\n  Actual: false (3 bytes differ, the first at 7)\n"
                         "Expected: true\nthe buffer both operations wrote"),
            "the buffer both operations wrote: 3 bytes differ, the first at 7");
  EXPECT_EQ(PlainFailure("Value of: IsCurrent(type, id)\n  Actual: false\nExpected: true"),
            "expected IsCurrent(type, id) to be true, got false");
}

TEST(PlainFailure, ComparisonsSayBothSides) {
  EXPECT_EQ(PlainFailure("Expected equality of these values:\n  state\n    Which is: 1\n  INFINIRT_EVENT_COMPLETE\n"
                         "    Which is: 0\nEventQuery after EventSynchronize"),
            "EventQuery after EventSynchronize: expected state (1) to equal INFINIRT_EVENT_COMPLETE (0)");
  EXPECT_EQ(PlainFailure("Expected equality of these values:\n  x\n    Which is: 1\n  5"), "expected x (1) to equal 5");
  EXPECT_EQ(PlainFailure("Expected: (free_after) >= (free_before), actual: 1 vs 2\nfree memory did not come back"),
            "free memory did not come back: expected free_after >= free_before, got 1 vs 2");
  EXPECT_EQ(PlainFailure("The difference between ac and ab + bc is 2, which exceeds kUs, where\nac evaluates to 5,\n"
                         "ab + bc evaluates to 3, and\nkUs evaluates to 0.001.\nt(a,c) against t(a,b) + t(b,c)"),
            "t(a,c) against t(a,b) + t(b,c): expected ac within 0.001 of ab + bc, got 5 against 3 (a difference of 2)");
}

TEST(PlainFailure, TracesStayBelowAndOtherTextsStayAsTheyAre) {
  EXPECT_EQ(PlainFailure("Failed\nthe create call answered BAD_PARAM"), "the create call answered BAD_PARAM");
  EXPECT_EQ(PlainFailure("Expected: (x) != (1), actual: 1 vs 1\nGoogle Test trace:\nf.cc:3: on device 1"),
            "expected x != 1, got 1 vs 1\nGoogle Test trace:\nf.cc:3: on device 1");
  EXPECT_EQ(PlainFailure("output y: 3 of 64 elements out of tolerance"), "output y: 3 of 64 elements out of tolerance");
}

TEST(WithClause, NamesTheCasesClausesUnlessTheLineDoes) {
  EXPECT_EQ(WithClause("expected a, got b\nmore", {"RT-MEM-10", "RT-MEM-11"}), "RT-MEM-10, RT-MEM-11: expected a, got b\nmore");
  EXPECT_EQ(WithClause("OP-STREAM-1: the sync answered X", {"OP-DESC-2"}), "OP-STREAM-1: the sync answered X");
  EXPECT_EQ(WithClause("no clause here", {}), "no clause here");
}

TEST(RootCause, TheFunctionACallNamesAndItsClause) {
  EXPECT_EQ(FunctionIn("rt().infinirtMalloc(&p, n)"), "infinirtMalloc");
  EXPECT_EQ(FunctionIn("the chain's infinirtMemcpyAsync(D2D)"), "infinirtMemcpyAsync");
  EXPECT_EQ(FunctionIn("call.calls.compute(desc, ws)"), "");
  EXPECT_EQ(FunctionIn("xinfinirtMalloc"), "");
  ASSERT_TRUE(RootCauseOf("infinirtStreamCreate(rank 0)").has_value());
  EXPECT_EQ(RootCauseOf("infinirtStreamCreate(rank 0)")->clause, "RT-STREAM-2");
  EXPECT_FALSE(RootCauseOf("infiniopGemm(desc)").has_value()) << "an operator's own call is its case's to judge";
  EXPECT_EQ(RepeatedStream({nullptr, nullptr}), "the NULL stream");
  EXPECT_EQ(RepeatedStream({reinterpret_cast<void *>(8), nullptr}), "");
}

}  // namespace
}  // namespace infinicts::cts
