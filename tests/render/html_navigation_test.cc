// The HTML page as a tool (issue 35): its table of contents, the case list (failures first)
// and the links from matrix cells and table counts into it, readable times, the NOISY flag,
// and charts whose every series, roof and cache-resident point can be told apart.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "render/case_list.h"
#include "render/html_report.h"
#include "render/number_format.h"
#include "report/load_report.h"
#include "report/noisy.h"

namespace infinicts::render {
namespace {

Json Fixture() {
  Json report;
  std::string error;
  EXPECT_TRUE(report::LoadReportFile(std::string(INFINICTS_RENDER_FIXTURES) + "/perf_report.json", &report, &error))
      << error;
  return report;
}

Json &ResultById(Json &report, const std::string &id) {
  for (Json &result : report["results"]) {
    if (result["id"] == id) return result;
  }
  ADD_FAILURE() << "no result " << id;
  static Json none;
  return none;
}

std::set<std::string> Captures(const std::string &text, const std::string &pattern) {
  std::set<std::string> found;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    found.insert((*it)[1]);
  }
  return found;
}

// From `start` to the end of the element region that follows (a figure, a table's row…).
std::string Between(const std::string &text, const std::string &start, const std::string &end) {
  const size_t at = text.find(start);
  if (at == std::string::npos) return "";
  return text.substr(at, text.find(end, at) - at);
}

// The operator × dtype matrix's figure.
std::string MatrixOf(const std::string &html) { return Between(html, "id=\"chart-status-matrix\"", "</figure>"); }

// The <tr> whose id is `anchor`.
std::string RowOf(const std::string &html, const std::string &anchor) {
  return Between(html, "<tr id=\"" + anchor + "\"", "</tr>");
}

TEST(HtmlNavigation, TableOfContentsAndEveryLinkResolve) {
  const std::string html = RenderHtmlReport(Fixture(), {});
  const std::string toc = Between(html, "<nav id=\"toc\">", "</nav>");
  for (const char *section : {"#root-causes", "#summary", "#cases", "#charts", "#chart-roofline", "#chart-status-matrix",
                              "#suite-op", "#perf", "#peaks"}) {
    EXPECT_NE(toc.find(std::string("href=\"") + section + "\""), std::string::npos) << section << "\n" << toc;
  }
  const std::set<std::string> ids = Captures(html, "id=\"([^\"]+)\"");
  const std::set<std::string> targets = Captures(html, "href=\"#([^\"]+)\"");
  EXPECT_GT(targets.size(), 20u);
  for (const std::string &target : targets) EXPECT_TRUE(ids.count(target)) << "#" << target << " leads nowhere";
}

TEST(HtmlNavigation, CaseListPutsTheFailuresFirst) {
  const std::string html = RenderHtmlReport(Fixture(), {});
  const std::string table = Between(html, "<table class=\"cases\"", "</table>");
  std::vector<std::string> statuses;
  const std::regex row("<tr id=\"case-[0-9]+\" data-status=\"([a-z]+)\"");
  for (auto it = std::sregex_iterator(table.begin(), table.end(), row); it != std::sregex_iterator(); ++it) {
    statuses.push_back((*it)[1]);
  }
  ASSERT_EQ(statuses.size(), 115u);  // every case of the fixture
  EXPECT_EQ(statuses[0], "crash");
  EXPECT_EQ(statuses[1], "timeout");
  EXPECT_EQ(statuses[2], "fail");
  EXPECT_EQ(statuses[3], "fail");
  EXPECT_EQ(std::count(statuses.begin(), statuses.end(), "pass"), 107);
  EXPECT_EQ(statuses.back(), "pass");
  // The filter form is there for the script, hidden without it.
  EXPECT_NE(html.find("<form id=\"case-filter\" class=\"case-filter\" hidden>"), std::string::npos);
  EXPECT_NE(html.find("<option value=\"failing\">"), std::string::npos);
  EXPECT_NE(html.find("<option value=\"op.gemm\">"), std::string::npos);
  EXPECT_NE(html.find("<option value=\"X-1\">"), std::string::npos);
}

TEST(HtmlNavigation, MatrixCellsLeadToTheirCases) {
  const std::string html = RenderHtmlReport(Fixture(), {});
  const std::string matrix = MatrixOf(html);
  const std::regex link("<a href=\"#(case-[0-9]+)\" data-filter=\"([^\"]+)\"><rect class=\"mark\"");
  size_t links = 0;
  for (auto it = std::sregex_iterator(matrix.begin(), matrix.end(), link); it != std::sregex_iterator(); ++it) {
    ++links;
    const std::string row = RowOf(html, (*it)[1]);
    ASSERT_FALSE(row.empty()) << (*it)[1];
    // The filter's subject and dtype are those of the case the cell leads to.
    const std::string filter = std::regex_replace(std::string((*it)[2]), std::regex("&amp;"), "&");
    const std::smatch parts = [&] {
      std::smatch m;
      std::regex_search(filter, m, std::regex("subject=([^&]+)&mode=conformance,accuracy&dtype=([^&]+)"));
      return m;
    }();
    ASSERT_EQ(parts.size(), 3u) << filter;
    EXPECT_NE(row.find("data-subject=\"" + parts[1].str() + "\""), std::string::npos) << row;
    EXPECT_NE(row.find("data-dtype=\"" + parts[2].str() + "\""), std::string::npos) << row;
  }
  size_t marks = 0;
  for (size_t at = matrix.find("<rect class=\"mark\""); at != std::string::npos; at = matrix.find("<rect class=\"mark\"", at + 1)) {
    ++marks;
  }
  EXPECT_EQ(links, marks) << "every cell links";
  EXPECT_GT(links, 5u);
  // gemm bf16's worst case is a fail, and its link leads to it: the first of the cell's cases.
  std::smatch gemm_bf16;
  ASSERT_TRUE(std::regex_search(
      matrix, gemm_bf16,
      std::regex("<a href=\"#(case-[0-9]+)\" data-filter=\"subject=op.gemm&amp;mode=conformance,accuracy&amp;dtype=bf16\">")));
  EXPECT_NE(RowOf(html, gemm_bf16[1]).find("data-status=\"fail\""), std::string::npos);
  // A dtype an operator has no case of reads as none, not as a count.
  EXPECT_TRUE(std::regex_search(matrix, std::regex("<title>handle bf16: no case</title><text [^>]*class=\"no-case\">—</text>")))
      << matrix;
}

// A dtype probe of a dtype gemm does not admit tests the refusal: it is no bool column.
TEST(HtmlNavigation, ProbesOfDtypesAnOperatorDoesNotAdmitCountUnderAny) {
  Json report = Fixture();
  report["results"].push_back({{"id", "op.gemm.conformance/dtype_probe/bool"}, {"suite", "op"}, {"subject", "gemm"},
                               {"mode", "conformance"}, {"clauses", {"OP-DTYPE-1"}}, {"status", "pass"}, {"message", ""},
                               {"duration_ms", 0.1}, {"params", {{"dtype", "bool"}, {"allowed_by_spec", false}}},
                               {"metrics", Json::object()}});
  const std::string matrix = MatrixOf(RenderHtmlReport(report, {}));
  EXPECT_EQ(matrix.find(">bool<"), std::string::npos) << "no bool column";
  EXPECT_NE(matrix.find("<title>gemm any: 1 pass</title>"), std::string::npos);
  EXPECT_NE(matrix.find("<title>handle any: "), std::string::npos);
}

TEST(HtmlNavigation, SuiteTableCountsLinkWithTheirFilter) {
  const std::string html = RenderHtmlReport(Fixture(), {});
  const std::string suite = Between(html, "id=\"suite-rt\"", "</table>");
  const std::regex link("<a href=\"#(case-[0-9]+)\" data-filter=\"status=crash&amp;subject=rt.stream&amp;mode=conformance\">1</a>");
  std::smatch found;
  ASSERT_TRUE(std::regex_search(suite, found, link)) << suite;
  EXPECT_NE(RowOf(html, found[1]).find("rt.stream.conformance/synchronize_after_kill"), std::string::npos);
}

TEST(CaseFilter, MatchesAndWritesItsFragment) {
  const Json report = Fixture();
  const Json *crash = nullptr;
  for (const Json &result : report["results"]) {
    if (result["status"] == "crash") crash = &result;
  }
  ASSERT_NE(crash, nullptr);
  EXPECT_TRUE((CaseFilter{"failing", "", "", "", ""}.Matches(*crash)));
  EXPECT_TRUE((CaseFilter{"crash", "rt.stream", "conformance,accuracy", "", "X-1"}.Matches(*crash)));
  EXPECT_FALSE((CaseFilter{"fail", "", "", "", ""}.Matches(*crash)));
  EXPECT_FALSE((CaseFilter{"", "rt.stream", "accuracy", "", ""}.Matches(*crash)));
  EXPECT_FALSE((CaseFilter{"", "", "", "", "X-10"}.Matches(*crash)));
  EXPECT_EQ((CaseFilter{"fail", "op.gemm", "", "f16", ""}.Fragment()), "status=fail&subject=op.gemm&dtype=f16");
  const CaseList cases(report);
  EXPECT_EQ(cases.FirstAnchor({"crash", "", "", "", ""}), "case-0");
  EXPECT_EQ(cases.FirstAnchor({"crash", "op.gemm", "", "", ""}), "");
  EXPECT_EQ(cases.Link({"crash", "op.gemm", "", "", ""}, "0"), "0");
}

TEST(HtmlNavigation, TimesInUnitsChosenByMagnitude) {
  Json report = Fixture();
  Json &add = ResultById(report, "op.add.perf/f32/tokens_1");
  add["metrics"]["time_ms_median"] = 2.35e-4;
  add["metrics"]["time_ms_p10"] = 0.5;
  add["duration_ms"] = 2500;
  const std::string html = RenderHtmlReport(report, {});
  const std::string perf = Between(html, "id=\"perf\"", "</table>");
  const std::string row = Between(perf, "<code>op.add.perf/f32/tokens_1</code>", "</tr>");
  EXPECT_NE(row.find(">235 ns<"), std::string::npos) << row;
  EXPECT_NE(row.find(">500 µs<"), std::string::npos) << row;
  EXPECT_EQ(perf.find("e-0"), std::string::npos) << "no exponents in the times";
  EXPECT_EQ(perf.find(" ms</th>"), std::string::npos) << "the unit is in each cell, not the header";
  const std::string listed = Between(html, "<code>op.add.perf/f32/tokens_1</code>", "</tr>");
  EXPECT_NE(listed.find(">2.5 s<"), std::string::npos) << listed;
}

TEST(HtmlNavigation, NoisyCvIsFlaggedAtTheTerminalsThreshold) {
  Json report = Fixture();
  ResultById(report, "op.add.perf/f32/tokens_1")["metrics"]["time_cv"] = 20.82;
  ResultById(report, "op.gemm.perf/f32/m1_n4096_k4096")["metrics"]["time_cv"] = report::kNoisyCv * 1.01;
  ResultById(report, "op.gemm.perf/f32/m16_n4096_k4096")["metrics"]["time_cv"] = report::kNoisyCv * 0.99;
  const std::string html = RenderHtmlReport(report, {});
  const std::string perf = Between(html, "id=\"perf\"", "</table>");
  auto row = [&](const std::string &id) { return Between(perf, "<code>" + id + "</code>", "</tr>"); };
  EXPECT_NE(row("op.add.perf/f32/tokens_1").find("<td class=\"num noisy\" title=\"the times spread too wide to compare\">2082% NOISY</td>"),
            std::string::npos)
      << row("op.add.perf/f32/tokens_1");
  EXPECT_NE(row("op.gemm.perf/f32/m1_n4096_k4096").find("NOISY"), std::string::npos);
  EXPECT_EQ(row("op.gemm.perf/f32/m16_n4096_k4096").find("NOISY"), std::string::npos);
  EXPECT_EQ(row("op.gemm.perf/f32/m128_n4096_k4096").find("NOISY"), std::string::npos);
}

// An op perf case of `subject` on the roofline.
Json RooflineCase(const std::string &subject, double intensity, double gflops) {
  return {{"id", "op." + subject + ".perf/f32/x"}, {"suite", "op"}, {"subject", subject}, {"mode", "perf"},
          {"clauses", {"PERF-1"}}, {"status", "pass"}, {"message", ""}, {"duration_ms", 1.0},
          {"params", {{"dtype", "f32"}}},
          {"metrics", {{"gflops", gflops}, {"arithmetic_intensity_flops_per_byte", intensity}}}};
}

TEST(HtmlCharts, RooflineLegendListsEveryOperatorInItsOwnStyle) {
  Json report = Fixture();
  for (int i = 0; i < 30; ++i) report["results"].push_back(RooflineCase("op_" + std::to_string(100 + i), 0.5 + i, 2 + i));
  const std::string html = RenderHtmlReport(report, {});
  const std::string roofline = Between(html, "id=\"chart-roofline\"", "</figure>");
  for (int i = 0; i < 30; ++i) EXPECT_NE(roofline.find(">op_" + std::to_string(100 + i) + "</text>"), std::string::npos) << i;
  for (const char *op : {">gemm</text>", ">add</text>", ">rms_norm</text>"}) EXPECT_NE(roofline.find(op), std::string::npos);
  EXPECT_EQ(roofline.find("more</text>"), std::string::npos);
  // Each series' legend swatch (colour, marker) differs from every other's.
  const std::regex entry("<g data-toggles=\"([0-9]+)\">(.*?)<text");
  std::set<std::string> swatches;
  size_t entries = 0;
  for (auto it = std::sregex_iterator(roofline.begin(), roofline.end(), entry); it != std::sregex_iterator(); ++it) {
    ++entries;
    swatches.insert(std::regex_replace(std::string((*it)[2]), std::regex("(c?[xy]|r|d|width|height)=\"[^\"]*\""), ""));
  }
  EXPECT_GE(entries, 33u);
  EXPECT_EQ(swatches.size(), entries);
}

TEST(HtmlCharts, RoofsAreLabelledAndCachePointsMarked) {
  Json report = Fixture();
  report["roofline"]["peaks"].push_back(
      {{"name", "bandwidth:cache"}, {"value", 300.0}, {"unit", "gbytes_per_s"}, {"source", "measured"}, {"case_id", "x"}});
  Json &add = ResultById(report, "op.add.perf/f32/tokens_1");
  add["metrics"]["roof_level_cache"] = 1;
  const std::string html = RenderHtmlReport(report, {});
  const std::string roofline = Between(html, "id=\"chart-roofline\"", "</figure>");
  for (const char *roof : {"DRAM roof 21.7 GB/s (measured)", "cache roof 300 GB/s (measured)",
                           "f32 compute peak 410 GFLOP/s (measured)", "f16 compute peak 800 GFLOP/s (Example CPU)"}) {
    const size_t label = roofline.find(std::string(">") + roof + "</text>");
    ASSERT_NE(label, std::string::npos) << roof;
    const size_t text = roofline.rfind("<text", label);
    EXPECT_NE(roofline.substr(text, label - text).find("class=\"roof-label\""), std::string::npos) << roof;
  }
  const std::string add_series = Between(roofline, "<title>add: ", "</title>");
  EXPECT_NE(add_series.find("ran in a cache"), std::string::npos) << add_series;
  EXPECT_NE(roofline.find("fill=\"#fff\""), std::string::npos) << "a hollow mark";
  EXPECT_NE(roofline.find(">hollow: in a cache, held to the cache roof</text>"), std::string::npos);
}

}  // namespace
}  // namespace infinicts::render
