// Unit tests of the spec/suite link checker: it must fail on each kind of broken link.
#include <gtest/gtest.h>

#include "spec_links.h"

namespace infinicts::spec {
namespace {

const char kSpec[] =
    "# A spec\n"
    "Text that mentions RT-X-9 is not a clause.\n"
    "- **RT-X-1** `f(NULL)` MUST answer NULL_POINTER.\n"
    "  *Why:* a reason.\n"
    "- **RT-X-2** `g` SHOULD be fast.\n"
    "* **RT-Y-1** `h` MUST NOT fail.\n";

std::vector<CitingCase> Cases(std::vector<std::vector<std::string>> citations) {
  std::vector<CitingCase> cases;
  for (size_t i = 0; i < citations.size(); ++i) cases.push_back({"case" + std::to_string(i), citations[i]});
  return cases;
}

TEST(ParseSpec, ReadsClauseItemsAndStrength) {
  const Spec spec = ParseSpec(kSpec);
  ASSERT_TRUE(spec.errors.empty()) << spec.errors.front();
  ASSERT_EQ(spec.clauses.size(), 3u);
  EXPECT_EQ(spec.clauses[0].id, "RT-X-1");
  EXPECT_TRUE(spec.clauses[0].must);
  EXPECT_EQ(spec.clauses[0].line, 3);
  EXPECT_EQ(spec.clauses[1].id, "RT-X-2");
  EXPECT_FALSE(spec.clauses[1].must);
  EXPECT_EQ(spec.clauses[2].id, "RT-Y-1");
  EXPECT_TRUE(spec.clauses[2].must);
}

// An area may hold digits after its first letter (CCL-P2P: point to point).
TEST(ParseSpec, ReadsAreasWithDigits) {
  const Spec spec = ParseSpec("- **CCL-P2P-1** `Send` MUST match `Recv`.\n");
  ASSERT_TRUE(spec.errors.empty()) << spec.errors.front();
  ASSERT_EQ(spec.clauses.size(), 1u);
  EXPECT_EQ(spec.clauses[0].id, "CCL-P2P-1");
}

TEST(ParseSpec, RejectsMalformedClauses) {
  const Spec spec = ParseSpec(
      "- **RT-X-1** says MUST and SHOULD.\n"
      "- **RT-X-2** says nothing binding.\n"
      "- **RT-X-3** MUST do a thing.\n"
      "- **RT-X-3** MUST do another thing.\n");
  ASSERT_EQ(spec.errors.size(), 3u);
  EXPECT_NE(spec.errors[0].find("both MUST and SHOULD"), std::string::npos);
  EXPECT_NE(spec.errors[1].find("neither MUST nor SHOULD"), std::string::npos);
  EXPECT_NE(spec.errors[2].find("repeats the id of line 3"), std::string::npos);
  EXPECT_EQ(spec.clauses.size(), 1u);
}

TEST(ParseSpec, EmptySpecIsAnError) { EXPECT_FALSE(ParseSpec("# nothing here\n").errors.empty()); }

TEST(ParseCaseList, ReadsIdsAndClauses) {
  std::vector<std::string> errors;
  const auto cases = ParseCaseList(
      R"({"id":"rt.a.conformance/x","clauses":["RT-X-1","RT-Y-1"],"subject":"a"})"
      "\n\n"
      R"({"id":"rt.a.conformance/y","clauses":[]})"
      "\nnot json\n",
      &errors);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "rt.a.conformance/x");
  EXPECT_EQ(cases[0].clauses, (std::vector<std::string>{"RT-X-1", "RT-Y-1"}));
  EXPECT_TRUE(cases[1].clauses.empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("line 4"), std::string::npos);
}

TEST(CheckLinks, PassesWhenEveryMustIsCited) {
  const LinkReport report = CheckLinks(ParseSpec(kSpec), Cases({{"RT-X-1"}, {"RT-Y-1", "RT-X-1"}}));
  EXPECT_TRUE(report.errors.empty());
  ASSERT_EQ(report.warnings.size(), 1u);  // the SHOULD clause nobody checks
  EXPECT_NE(report.warnings[0].find("RT-X-2"), std::string::npos);
}

TEST(CheckLinks, FailsOnAnUnknownClause) {
  const LinkReport report = CheckLinks(ParseSpec(kSpec), Cases({{"RT-X-1", "RT-Y-1", "RT-X-7"}}));
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors[0].find("cites RT-X-7"), std::string::npos);
}

TEST(CheckLinks, FailsOnAnUncitedMustClause) {
  const LinkReport report = CheckLinks(ParseSpec(kSpec), Cases({{"RT-X-1", "RT-X-2"}}));
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors[0].find("RT-Y-1"), std::string::npos);
  EXPECT_TRUE(report.warnings.empty());
}

TEST(CheckLinks, FailsOnACaseWithoutClauses) {
  const LinkReport report = CheckLinks(ParseSpec(kSpec), Cases({{"RT-X-1", "RT-Y-1"}, {}}));
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors[0].find("case1 cites no clause"), std::string::npos);
}

}  // namespace
}  // namespace infinicts::spec
