// The HTML, Markdown and JUnit renderers and the Google Benchmark reader, on the
// synthetic fixtures in tests/render/fixtures (a perf run with every status).
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "render/benchmark_file.h"
#include "render/html_report.h"
#include "render/junit_report.h"
#include "render/markdown_report.h"
#include "render/number_format.h"
#include "render/report_data.h"
#include "report/load_report.h"
#include "xml_check.h"

namespace infinicts::render {
namespace {

const std::string kFixtures = INFINICTS_RENDER_FIXTURES;

size_t Count(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

Json Fixture() {
  Json report;
  std::string error;
  EXPECT_TRUE(report::LoadReportFile(kFixtures + "/perf_report.json", &report, &error)) << error;
  return report;
}

const Json &ResultById(const Json &report, const std::string &id) {
  for (const Json &result : report["results"]) {
    if (result["id"] == id) return result;
  }
  ADD_FAILURE() << "no result " << id;
  static const Json none;
  return none;
}

BenchmarkFile Benchmarks() {
  BenchmarkFile file;
  std::string error;
  EXPECT_TRUE(LoadBenchmarkFile(kFixtures + "/google_benchmark.json", &file, &error)) << error;
  return file;
}

TEST(RenderFixture, ValidatesAgainstTheSchema) {
  Json report;
  std::string error;
  ASSERT_TRUE(report::LoadReportFile(kFixtures + "/perf_report.json", &report, &error)) << error;
  EXPECT_FALSE(report::LoadReportFile(kFixtures + "/invalid_report.json", &report, &error));
  EXPECT_NE(error.find("not a valid infinicts report"), std::string::npos) << error;
}

TEST(HtmlReport, HasEverySectionAndChart) {
  const std::string html = RenderHtmlReport(Fixture(), {Benchmarks()});
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  for (const char *section : {"id=\"header\"", "id=\"toc\"", "id=\"summary\"", "id=\"levels\"", "id=\"expectations\"", "id=\"cases\"",
                              "id=\"not-passed\"", "id=\"charts\"", "id=\"suite-rt\"", "id=\"suite-op\"", "id=\"suite-ccl\"",
                              "id=\"perf\"", "id=\"peaks\"", "id=\"benchmark-1\""}) {
    EXPECT_NE(html.find(section), std::string::npos) << section;
  }
  for (const char *chart : {"status-matrix", "memcpy-bandwidth", "ccl-busbw", "roofline", "op-throughput", "op-bandwidth"}) {
    EXPECT_NE(html.find(std::string("<figure class=\"chart\" id=\"chart-") + chart + "\""), std::string::npos) << chart;
  }
  EXPECT_EQ(html.find("-missing\""), std::string::npos);  // every chart has data here
  // Header facts and the levels' reasons.
  EXPECT_NE(html.find("infinicts 0.1.0 (abc1234)"), std::string::npos);
  EXPECT_NE(html.find("/opt/vendor/lib/libinfiniccl.so"), std::string::npos);
  EXPECT_NE(html.find("Example CPU &lt;16 cores&gt;"), std::string::npos);
  EXPECT_NE(html.find("(3 min 25 s), complete"), std::string::npos);
  EXPECT_NE(html.find("rt.event: rt.event.conformance/elapsed_time ended unsupported"), std::string::npos);
  EXPECT_NE(html.find("missing: infinirtEventElapsedTime"), std::string::npos);
  // Expectations.
  EXPECT_NE(html.find("ci/expect/cpu.txt"), std::string::npos);
  EXPECT_NE(html.find("op.gemm.conformance/matches_oracle/f32/case_2"), std::string::npos);
  // Roofline peaks and the benchmark table (with its counters and error).
  EXPECT_NE(html.find("compute:f16"), std::string::npos);
  EXPECT_NE(html.find("21.7 GB/s"), std::string::npos);
  EXPECT_NE(html.find("BM_GemmOracle/64"), std::string::npos);
  EXPECT_NE(html.find("gflops_&lt;oracle&gt;"), std::string::npos);
  EXPECT_NE(html.find("backend missing &lt;infiniopGemm&gt;"), std::string::npos);
}

TEST(HtmlReport, PerfTableShowsTheTimingFigures) {
  const Json report = Fixture();
  const std::string html = RenderHtmlReport(report, {});
  const Json &copy = ResultById(report, "rt.memory.perf/bandwidth/d2d/device/bytes_268435456");
  const std::string row_start = "<code>rt.memory.perf/bandwidth/d2d/device/bytes_268435456</code>";
  const size_t row = html.find(row_start, html.find("id=\"perf\""));
  ASSERT_NE(row, std::string::npos);
  const std::string line = html.substr(row, html.find("</tr>", row) - row);
  for (const char *metric : {"time_ms_median", "time_ms_p10", "time_ms_p90"}) {
    EXPECT_NE(line.find(">" + FormatMilliseconds(copy["metrics"][metric].get<double>()) + "<"), std::string::npos) << metric;
  }
  EXPECT_NE(line.find(FormatNumber(copy["metrics"]["gbytes_per_s"].get<double>()) + " GB/s"), std::string::npos);
  EXPECT_NE(line.find(FormatNumber(copy["metrics"]["time_cv"].get<double>() * 100, 2) + "%"), std::string::npos);
}

TEST(HtmlReport, EscapesMessagesAndStaysOffline) {
  const std::string html = RenderHtmlReport(Fixture(), {Benchmarks()});
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(Count(html, "<script"), 1u);  // only the page's own script
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_GT(Count(html, "href=\"#"), 0u);
  EXPECT_EQ(Count(html, "href="), Count(html, "href=\"#"));  // links within the page only
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(Count(html, "http"), Count(html, "http://www.w3.org/2000/svg"));  // the SVG namespace, not a fetch
  EXPECT_NE(html.find("dataset.chartsRendered"), std::string::npos);
}

TEST(HtmlReport, ChartsWithoutDataBecomeNotes) {
  Json report = Fixture();
  Json kept = Json::array();
  for (const Json &result : report["results"]) {
    if (result["mode"] != "perf") kept.push_back(result);
  }
  report["results"] = kept;
  report.erase("roofline");
  const std::string html = RenderHtmlReport(report, {});
  for (const char *chart : {"memcpy-bandwidth", "ccl-busbw", "roofline", "op-throughput"}) {
    EXPECT_EQ(html.find(std::string("id=\"chart-") + chart + "\""), std::string::npos) << chart;
    EXPECT_NE(html.find(std::string("id=\"chart-") + chart + "-missing\""), std::string::npos) << chart;
  }
  EXPECT_EQ(html.find("op-bandwidth"), std::string::npos);
  EXPECT_NE(html.find("id=\"chart-status-matrix\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"perf\""), std::string::npos);
}

TEST(HtmlReport, StatusMatrixCellsCarryTheWorstStatusAndCounts) {
  const std::string html = RenderHtmlReport(Fixture(), {});
  const size_t start = html.find("id=\"chart-status-matrix\"");
  const std::string matrix = html.substr(start, html.find("</figure>", start) - start);
  // gemm bf16: one of four failed; add f16: one xfail; rms_norm f16: one skip.
  EXPECT_NE(matrix.find("data-status=\"fail\"><title>gemm bf16: 3 pass, 1 fail</title>"), std::string::npos);
  EXPECT_NE(matrix.find("data-status=\"xfail\"><title>add f16: 3 pass, 1 xfail</title>"), std::string::npos);
  EXPECT_NE(matrix.find("data-status=\"skip\"><title>rms_norm f16: 3 pass, 1 skip</title>"), std::string::npos);
  EXPECT_NE(matrix.find(">3/4</text>"), std::string::npos);
  EXPECT_NE(matrix.find("handle any"), std::string::npos);
}

// An F64 accuracy result of `op` that ended unsupported; `optional`: as a refused optional
// dtype (result.optional_capability).
void AddUnsupportedF64(Json &report, const std::string &op, int i, bool optional) {
  Json result = {{"id", "op." + op + ".accuracy/matches_oracle/f64/refused_" + std::to_string(i)},
                 {"suite", "op"}, {"subject", op}, {"mode", "accuracy"}, {"clauses", {"OP-1"}},
                 {"status", "unsupported"}, {"message", "F64 refused"}, {"duration_ms", 0.5},
                 {"params", {{"dtype", "f64"}}}, {"metrics", Json::object()}};
  if (optional) result["optional_capability"] = "f64";
  report["results"].push_back(result);
}

// A dtype the spec leaves optional, refused (unsupported with optional_capability), is shown
// apart: "refused", its own colour; an unsupported without it stays unsupported.
TEST(HtmlReport, StatusMatrixShowsOptionalDtypesRefusedAsTheSpecAllows) {
  Json report = Fixture();
  AddUnsupportedF64(report, "gemm", 0, true);
  AddUnsupportedF64(report, "gemm", 1, true);
  AddUnsupportedF64(report, "rms_norm", 0, false);
  const std::string html = RenderHtmlReport(report, {});
  const size_t start = html.find("id=\"chart-status-matrix\"");
  const std::string matrix = html.substr(start, html.find("</figure>", start) - start);
  EXPECT_NE(matrix.find("data-status=\"refused_optional\"><title>gemm f64: 2 refused, as the spec allows</title>"),
            std::string::npos);
  EXPECT_NE(matrix.find(">refused</text>"), std::string::npos);
  EXPECT_NE(matrix.find("data-status=\"unsupported\"><title>rms_norm f64: 1 unsupported</title>"), std::string::npos);
  EXPECT_NE(matrix.find("refused (optional)"), std::string::npos) << "in the legend";
}

TEST(HtmlReport, StaysSmallForFiveThousandResults) {
  Json report = Fixture();
  Json results = Json::array();
  const char *ops[] = {"gemm", "add", "sub", "mul", "relu", "silu", "gelu", "softmax", "rms_norm", "rope"};
  for (int i = 0; i < 5000; ++i) {
    const bool skipped = i % 50 == 0;
    const std::string op = ops[i % 10];
    const std::string dtype = i % 3 == 0 ? "f16" : "f32";
    results.push_back({{"id", "op." + op + ".accuracy/matches_oracle/" + dtype + "/many_" + std::to_string(i)},
                       {"suite", "op"}, {"subject", op}, {"mode", "accuracy"}, {"clauses", {"OP-1"}},
                       {"status", skipped ? "skip" : "pass"}, {"message", skipped ? "needs 2 devices; the run has 1" : ""},
                       {"duration_ms", 0.5}, {"params", {{"dtype", dtype}}}, {"metrics", {{"max_ulp", 0.5}}}});
  }
  report["results"] = results;
  const std::string html = RenderHtmlReport(report, {});
  // Every case is listed, so that every matrix cell can lead to its cases; a passing case's row
  // stays short (no message cell) and the list scrolls within its box.
  EXPECT_NE(html.find(">op.add.accuracy/matches_oracle/f32/many_1<"), std::string::npos);
  EXPECT_LT(html.size(), 100u * 1024 + 250u * 5000) << html.size();
}

// Crashes on valid and on invalid input are counted apart; the layouts an operator refused cleanly
// have their own table; the root causes open the page, each with a case and its rerun.
TEST(MarkdownReport, CrashesApartLayoutsRefusedAndRootCausesFirst) {
  Json report = Fixture();
  report["summary"]["crash"] = 3;
  report["summary"]["crash_on_invalid_input"] = 2;
  report["summary"]["missing_capabilities"] = Json::array(
      {{{"part", "op.rms_norm"}, {"capability", "layout transposed"}, {"cases", 12}, {"first", "op.rms_norm.x"}},
       {{"part", "op.rms_norm"}, {"capability", "f64"}, {"cases", 4}, {"first", "op.rms_norm.y"}},
       {{"part", "op.rope"}, {"capability", "layout strided"}, {"cases", 8}, {"first", "op.rope.x"}}});
  report["summary"]["root_causes"] = Json::array(
      {{{"status", "crash"}, {"clause", ""}, {"message", "killed on invalid input"}, {"count", 2},
        {"examples", {"op.gemm.conformance/destroy_null/f32"}}, {"subjects", {"op.gemm", "op.add"}},
        {"rerun", "infinicts run --filter op.gemm.conformance/destroy_null/f32"}}});
  const std::string md = RenderMarkdownReport(report, {});
  EXPECT_NE(md.find("| crash on valid input | crash on invalid input |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("## Layouts refused"), std::string::npos) << md;
  EXPECT_NE(md.find("| operator | strided | transposed |"), std::string::npos) << md;
  EXPECT_NE(md.find("| op.rms\\_norm | – | 12 |"), std::string::npos) << md;
  EXPECT_LT(md.find("## Failures by root cause (1)"), md.find("## Summary"));
  EXPECT_NE(md.find("| `op.gemm.conformance/destroy_null/f32` | `infinicts run --filter op.gemm.conformance/destroy_null/f32` |"),
            std::string::npos)
      << md;
  const std::string html = RenderHtmlReport(report, {});
  EXPECT_NE(html.find("<th>crash on invalid input</th>"), std::string::npos);
  EXPECT_NE(html.find("id=\"layouts-refused\""), std::string::npos);
  EXPECT_LT(html.find("id=\"root-causes\""), html.find("id=\"summary\""));
}

TEST(MarkdownReport, SummaryLevelsFailuresAndPerf) {
  const std::string md = RenderMarkdownReport(Fixture(), {Benchmarks()});
  EXPECT_EQ(md.rfind("# infinicts report: cpu", 0), 0u);
  EXPECT_NE(md.find("| 115 | 107 | 2 | 0 | 1 | 0 | 1 | 1 | 2 | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- **minimal**: not reached"), std::string::npos);
  EXPECT_NE(md.find("## Failures (4)"), std::string::npos);
  // Worst first: the crash's row comes before the fails, with only its first line.
  const size_t crash = md.find("| `rt.stream.conformance/synchronize_after_kill` | crash | killed by signal 11 (SIGSEGV) |");
  ASSERT_NE(crash, std::string::npos) << md;
  EXPECT_LT(crash, md.find("| `rt.memory.conformance/memcpy/d2h/bytes_4097` | fail |"));
  EXPECT_EQ(md.find("stderr tail"), std::string::npos);
  EXPECT_NE(md.find("Also: 2 skip; 1 unsupported; 1 xfail."), std::string::npos);
  // Perf top lines: gemm f16 at its best, bandwidth at the largest size.
  EXPECT_NE(md.find("| gemm | f16 | 615 GFLOP/s |"), std::string::npos) << md;
  EXPECT_NE(md.find("| d2d (device) | 256 MiB | 181 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| all\\_reduce, 4 ranks | 32 MiB |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `BM_HalfToFloat/4096` | 3861 ns |"), std::string::npos) << md;
  // No HTML: markup characters arrive as text.
  EXPECT_EQ(md.find('<'), std::string::npos);
  EXPECT_NE(md.find("&lt;script&gt;"), std::string::npos);
}

// The HTML matrix's cells as a table: passed/total and the worst status, a refused optional
// dtype apart from an unsupported one, "–" where an operator has no case of a dtype.
TEST(MarkdownReport, OperatorByDtypeMatrix) {
  Json report = Fixture();
  AddUnsupportedF64(report, "gemm", 0, true);
  AddUnsupportedF64(report, "gemm", 1, true);
  AddUnsupportedF64(report, "rms_norm", 0, false);
  const std::string md = RenderMarkdownReport(report, {});
  const size_t start = md.find("## Operators × dtypes");
  ASSERT_NE(start, std::string::npos) << md;
  const std::string matrix = md.substr(start, md.find("\n## ", start + 1) - start);
  EXPECT_NE(matrix.find("| operator | bf16 |"), std::string::npos) << matrix;
  const auto row = [&](const std::string &op) {
    const size_t at = matrix.find("\n| " + op + " |");
    return at == std::string::npos ? std::string() : matrix.substr(at + 1, matrix.find('\n', at + 1) - at - 1);
  };
  EXPECT_NE(row("gemm").find("| 3/4 fail |"), std::string::npos) << matrix;
  EXPECT_NE(row("gemm").find("| refused (optional) |"), std::string::npos) << matrix;
  EXPECT_NE(row("add").find("| 3/4 xfail |"), std::string::npos) << matrix;
  EXPECT_NE(row("rms\\_norm").find("| 3/4 skip |"), std::string::npos) << matrix;
  EXPECT_NE(row("rms\\_norm").find("| 0/1 unsupported |"), std::string::npos) << matrix;
  EXPECT_NE(row("handle").find("–"), std::string::npos) << matrix;
  // Before the failures: the matrix is the verdict per operator.
  EXPECT_LT(start, md.find("## Failures ("));
}

TEST(Renderers, APerfOnlyRunDoesNotJudgeTheLevels) {
  Json report = Fixture();
  report["run"]["modes"] = Json::array({"perf"});
  const std::string md = RenderMarkdownReport(report, {});
  EXPECT_NE(md.find(std::string("- ") + kLevelsNotJudged), std::string::npos) << md;
  EXPECT_EQ(md.find("- **minimal**"), std::string::npos);
  const std::string html = RenderHtmlReport(report, {});
  EXPECT_NE(html.find(kLevelsNotJudged), std::string::npos);
  EXPECT_EQ(html.find("<table class=\"levels\">"), std::string::npos);
}

TEST(MarkdownReport, CellsCannotBreakTheTable) {
  EXPECT_EQ(MarkdownCell("a|b\nc `d` <e>"), "a\\|b c \\`d\\` &lt;e&gt;");
}

TEST(JunitReport, WellFormedWithOneSuitePerSuiteAndMode) {
  const Json report = Fixture();
  const std::string xml = RenderJunitReport(report);
  EXPECT_EQ(test::XmlProblem(xml), "") << xml.substr(0, 2000);
  std::set<std::string> suites;
  for (const Json &result : report["results"]) suites.insert(result["suite"].get<std::string>() + "." + result["mode"].get<std::string>());
  // One per suite and mode, and the failures by root cause for the run.
  EXPECT_EQ(Count(xml, "<testsuite "), suites.size() + 1);
  EXPECT_NE(xml.find("<testsuite name=\"root causes\""), std::string::npos);
  EXPECT_NE(xml.find("failures by root cause:"), std::string::npos);
  for (const std::string &suite : suites) EXPECT_NE(xml.find("<testsuite name=\"" + suite + "\""), std::string::npos);
  EXPECT_EQ(Count(xml, "<testcase "), report["results"].size());
  // A crash and a timeout did not run to a verdict: JUnit errors, not failures.
  EXPECT_EQ(Count(xml, "<failure "), 2u);
  EXPECT_EQ(Count(xml, "<error "), 2u);
  EXPECT_EQ(Count(xml, "<skipped "), 3u);
  EXPECT_EQ(Count(xml, "<system-out>xfail:"), 1u);
  EXPECT_NE(xml.find("<testsuites name=\"infinicts cpu\" tests=\"115\" failures=\"2\" errors=\"2\" skipped=\"3\""),
            std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"rt.memory.perf\" name=\"bandwidth/d2d/device/bytes_268435456\" time=\"0.120000\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<error type=\"crash\" message=\"crash: killed by signal 11 (SIGSEGV)\">"), std::string::npos);
  EXPECT_NE(xml.find("<error type=\"timeout\""), std::string::npos);
  EXPECT_NE(xml.find("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; more"), std::string::npos);
  EXPECT_EQ(xml.find("<script"), std::string::npos);
}

TEST(JunitReport, EscapingKeepsAnyMessageWellFormed) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'\n\x01"), "a&lt;b&gt;&amp;&quot;c&apos;&#10;");
  Json report = Fixture();
  report["results"][0]["status"] = "fail";
  report["results"][0]["message"] = std::string("]]> </testcase> \x02 &bogus; <!-- \"quoted\"");
  EXPECT_EQ(test::XmlProblem(RenderJunitReport(report)), "");
}

TEST(XmlCheck, CatchesWhatIsNotWellFormed) {
  EXPECT_EQ(test::XmlProblem("<a x=\"1\"><b/>text &amp; &#10;</a>"), "");
  EXPECT_NE(test::XmlProblem("<a><b></a></b>"), "");
  EXPECT_NE(test::XmlProblem("<a x=1/>"), "");
  EXPECT_NE(test::XmlProblem("<a>&nbsp;</a>"), "");
  EXPECT_NE(test::XmlProblem("<a x=\"<\"/>"), "");
  EXPECT_NE(test::XmlProblem("<a/><b/>"), "");
  EXPECT_NE(test::XmlProblem("<a>"), "");
}

TEST(BenchmarkFile, ReadsRowsCountersAndContext) {
  const BenchmarkFile file = Benchmarks();
  ASSERT_EQ(file.rows.size(), 3u);
  EXPECT_EQ(file.rows[0].name, "BM_HalfToFloat/4096");
  EXPECT_DOUBLE_EQ(file.rows[0].real_time, 3861.2);
  EXPECT_EQ(file.rows[0].time_unit, "ns");
  EXPECT_DOUBLE_EQ(file.rows[0].iterations, 181234);
  EXPECT_EQ(file.rows[0].counters.size(), 2u);  // bytes_per_second, items_per_second
  EXPECT_DOUBLE_EQ(file.rows[0].counters.at("bytes_per_second"), 4.2431e9);
  EXPECT_EQ(file.rows[2].error, "backend missing <infiniopGemm>");
  EXPECT_EQ(file.context.at("host_name"), "bench-host");
  EXPECT_EQ(file.context.at("num_cpus"), "16");
  EXPECT_EQ(file.context.count("caches"), 0u);
}

TEST(BenchmarkFile, MalformedFilesAreRefusedWithTheReason) {
  BenchmarkFile file;
  std::string error;
  EXPECT_FALSE(LoadBenchmarkFile(kFixtures + "/bad_google_benchmark.json", &file, &error));
  EXPECT_NE(error.find("bad_google_benchmark.json: benchmarks[0] (BM_NoTimes) has no numeric \"real_time\""),
            std::string::npos) << error;
  EXPECT_FALSE(LoadBenchmarkFile(kFixtures + "/perf_report.json", &file, &error));
  EXPECT_NE(error.find("no \"benchmarks\" array"), std::string::npos) << error;
  EXPECT_FALSE(LoadBenchmarkFile(kFixtures + "/does_not_exist.json", &file, &error));
  EXPECT_NE(error.find("cannot be read"), std::string::npos) << error;
}

}  // namespace
}  // namespace infinicts::render
