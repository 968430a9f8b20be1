// The terminal summary, the Markdown and the HTML page of a comparison.
#include <gtest/gtest.h>

#include "regression/compare_reports.h"
#include "regression/html_writer.h"
#include "regression/markdown_writer.h"
#include "regression/terminal_summary.h"
#include "synthetic_report.h"

namespace infinicts::regression {
namespace {

using testing::SyntheticReport;

bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

Comparison SlowdownAndNewFailure() {
  SyntheticReport base, next;
  base.Case("op.add.conformance/a", "pass").PerfPercentiles("op.add.perf/big", 1.0, 0.98, 1.02);
  base.Case("op.mul.conformance/b", "fail").PerfPercentiles("op.mul.perf/x", 2.0, 1.9, 2.1);
  next.Case("op.add.conformance/a", "fail").PerfPercentiles("op.add.perf/big", 3.0, 2.9, 3.1);
  next.Case("op.mul.conformance/b", "pass").PerfPercentiles("op.mul.perf/x", 1.0, 0.95, 1.05);
  next.Host("Other CPU", 2);
  return CompareReports(base.json(), next.json(), {"base.json", "new.json", 0.05});
}

TEST(TerminalSummary, CountsNamesTheWorstAndGivesTheVerdict) {
  const std::string text = TerminalSummary(SlowdownAndNewFailure());
  EXPECT_TRUE(Contains(text, "warning: hosts' cpu differ")) << text;
  EXPECT_TRUE(Contains(text, "1 newly failing")) << text;
  EXPECT_TRUE(Contains(text, "newly failing  op.add.conformance/a  pass -> fail  what went wrong")) << text;
  EXPECT_TRUE(Contains(text, "newly passing  op.mul.conformance/b  fail -> pass")) << text;
  EXPECT_TRUE(Contains(text, "slowdown  op.add.perf/big  ×3.00 (+200.0%)")) << text;
  EXPECT_TRUE(Contains(text, "speedup  op.mul.perf/x  ×0.50 (-50.0%)")) << text;
  EXPECT_TRUE(Contains(text, "REGRESSION: 1 newly failing, 1 slowdown\n")) << text;
}

TEST(TerminalSummary, SaysNoRegressionWhenThereIsNone) {
  SyntheticReport report;
  report.Case("op.add.conformance/a", "pass");
  const std::string text = TerminalSummary(CompareReports(report.json(), report.json(), {"a.json", "b.json", 0.05}));
  EXPECT_TRUE(Contains(text, "No regression.")) << text;
  EXPECT_FALSE(Contains(text, "warning")) << text;
}

TEST(Markdown, HasTheVerdictTablesAndEscapedCells) {
  const std::string markdown = ComparisonMarkdown(SlowdownAndNewFailure());
  EXPECT_TRUE(Contains(markdown, "**Regression: 1 newly failing, 1 slowdown.**")) << markdown;
  EXPECT_TRUE(Contains(markdown, "## Performance")) << markdown;
  EXPECT_TRUE(Contains(markdown, "| op.add.perf/big | **×3.00** |")) << markdown;
  EXPECT_TRUE(Contains(markdown, "| op.add | 1 | **×3.00** | 1 | 0 |")) << markdown;
  // A message's pipe and angle brackets cannot break the table or become HTML.
  EXPECT_TRUE(Contains(markdown, "what went wrong \\| &lt;here&gt;")) << markdown;
  EXPECT_FALSE(Contains(markdown, "<here>")) << markdown;
}

TEST(Markdown, LongTablesAreCutWithANote) {
  SyntheticReport base, next;
  for (int i = 0; i < 40; ++i) {
    base.Case("op.add.conformance/case_" + std::to_string(i), "pass");
    next.Case("op.add.conformance/case_" + std::to_string(i), "crash");
  }
  const Comparison comparison = CompareReports(base.json(), next.json(), {"b", "n", 0.05});
  const std::string markdown = ComparisonMarkdown(comparison);
  EXPECT_TRUE(Contains(markdown, "… and 10 more")) << markdown;
  const std::string html = ComparisonHtml(comparison);
  EXPECT_TRUE(Contains(html, "op.add.conformance/case_39"));
  const std::string text = TerminalSummary(comparison);
  EXPECT_TRUE(Contains(text, "… and 30 more")) << text;
}

TEST(Html, IsOnePageWithEscapedText) {
  const std::string html = ComparisonHtml(SlowdownAndNewFailure());
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_TRUE(Contains(html, "<p class=\"worse\">Regression: 1 newly failing, 1 slowdown.</p>"));
  EXPECT_TRUE(Contains(html, "<td class=\"worse\">×3.00</td>"));
  EXPECT_TRUE(Contains(html, "what went wrong | &lt;here&gt;"));
  EXPECT_TRUE(Contains(html, "Every perf case timed in both"));
  EXPECT_FALSE(Contains(html, "<here>"));
  EXPECT_FALSE(Contains(html, "http://")) << "the page must open without a network";
}

}  // namespace
}  // namespace infinicts::regression
