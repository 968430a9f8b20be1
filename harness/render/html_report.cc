#include "render/html_report.h"

#include <algorithm>
#include <cstring>

#include "render/case_list.h"
#include "render/html_page.h"
#include "render/number_format.h"
#include "render/report_charts.h"
#include "render/page_script.h"
#include "render/report_text.h"
#include "report/noisy.h"

namespace infinicts::render {
namespace {

constexpr size_t kMessageChars = 4000;   // a crash's stderr tail can be long
constexpr size_t kIdsPerGroup = 5;       // example ids shown for a collapsed group

std::string Escape(const std::string &text) { return HtmlEscape(text); }

std::string Cell(const std::string &text, const std::string &css_class = "") {
  return (css_class.empty() ? "<td>" : "<td class=\"" + css_class + "\">") + Escape(text) + "</td>";
}
std::string NumberCell(const std::string &text) { return "<td class=\"num\">" + Escape(text) + "</td>"; }
std::string OptionalTime(const std::optional<double> &ms) { return ms ? FormatMilliseconds(*ms) : "–"; }

// The spread of a perf case's times, flagged past the terminal's NOISY threshold.
std::string CvCell(const std::optional<double> &cv) {
  if (!cv) return NumberCell("–");
  const std::string percent = FormatNumber(*cv * 100, 2) + "%";
  if (!report::IsNoisy(*cv)) return NumberCell(percent);
  return "<td class=\"num noisy\" title=\"the times spread too wide to compare\">" + Escape(percent) + " NOISY</td>";
}

std::string Message(const std::string &message) {
  if (message.size() <= kMessageChars) return "<pre>" + Escape(message) + "</pre>";
  return "<pre>" + Escape(message.substr(0, kMessageChars)) + "\n… (" + std::to_string(message.size() - kMessageChars) +
         " more characters in the JSON report)</pre>";
}

std::string HeaderSection(const Json &report) {
  const Json &backend = report["backend"];
  std::string libraries;
  for (const Json &library : backend["libraries"]) libraries += (libraries.empty() ? "" : "<br>") + Escape(library.get<std::string>());
  std::string argv;
  for (const Json &word : report["run"]["argv"]) argv += (argv.empty() ? "" : " ") + word.get<std::string>();
  std::string suites, modes;
  for (const Json &suite : report["run"]["suites"]) suites += (suites.empty() ? "" : ", ") + suite.get<std::string>();
  for (const Json &mode : report["run"]["modes"]) modes += (modes.empty() ? "" : ", ") + mode.get<std::string>();
  std::string missing;
  for (const Json &symbol : backend["missing"]) missing += (missing.empty() ? "" : ", ") + symbol.get<std::string>();

  std::string out = "<h1>infinicts report: " + Escape(backend.value("device_type", "")) + " backend</h1>\n";
  out += "<table class=\"header\" id=\"header\">";
  out += "<tr><th>tool</th>" + Cell(ToolLine(report)) + "</tr>";
  out += "<tr><th>backend</th><td>" + libraries + "</td></tr>";
  out += "<tr><th>device</th>" + Cell(DeviceLine(report)) + "</tr>";
  std::string missing_libraries;
  for (const Json &library : backend.value("missing_libraries", Json::array())) {
    missing_libraries += (missing_libraries.empty() ? "" : ", ") + library.get<std::string>();
  }
  if (!missing_libraries.empty()) {
    out += "<tr><th>missing libraries</th>" + Cell(missing_libraries + ": their suites were not run") + "</tr>";
  }
  out += "<tr><th>exported / missing</th>" +
         Cell(std::to_string(backend["exported"].size()) + " symbols exported; " +
              (missing.empty() ? (missing_libraries.empty() ? "none missing" : "none missing of the libraries loaded")
                               : "missing: " + missing)) + "</tr>";
  out += "<tr><th>host</th>" + Cell(HostLine(report)) + "</tr>";
  out += "<tr><th>run</th>" + Cell(RunLine(report)) + "</tr>";
  out += "<tr><th>suites / modes</th>" + Cell(suites + " / " + modes) + "</tr>";
  out += "<tr><th>command</th><td><code>" + Escape(argv) + "</code></td></tr>";
  return out + "</table>\n";
}

std::string SummarySection(const Json &report, const CaseList &cases) {
  const Json &summary = report["summary"];
  std::string out = "<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\"><tr><th>total</th>";
  const std::vector<SummaryColumn> columns = SummaryColumns(summary);
  for (const SummaryColumn &column : columns) out += "<th>" + Escape(column.label) + "</th>";
  out += "</tr><tr>" + NumberCell(std::to_string(summary.value("total", 0)));
  for (const SummaryColumn &column : columns) {
    const std::string count = std::to_string(column.count);
    out += "<td class=\"num" + (column.count > 0 ? " " + column.status : std::string()) + "\">" +
           (column.count > 0 ? cases.Link({column.status, "", "", "", ""}, count) : count) + "</td>";
  }
  out += "</tr></table>\n";

  out += "<h2 id=\"levels\">Conformance levels</h2>\n";
  if (!JudgesLevels(report)) return out + "<p>" + Escape(kLevelsNotJudged) + "</p>\n";
  out += "<table class=\"levels\"><tr><th>level</th><th>verdict</th><th>why not</th></tr>";
  for (const char *level : {"minimal", "advanced"}) {
    const std::string verdict = LevelVerdict(report, level);
    std::string reasons;
    if (summary.contains("levels_detail")) {
      for (const Json &reason : summary["levels_detail"][level]) reasons += "<li>" + Escape(reason.get<std::string>()) + "</li>";
    }
    std::string shown = verdict;
    if (verdict == "reached" && summary.contains("judged_on_devices")) {
      shown += " on " + std::to_string(summary.value("judged_on_devices", 0)) + " device(s)";
    }
    out += std::string("<tr><td>") + level + "</td>" +
           Cell(shown, verdict == "reached" ? "pass" : verdict == "not judged" ? "skip" : "fail") + "<td>" +
           (reasons.empty() ? "" : "<ul>" + reasons + "</ul>") + "</td></tr>";
  }
  out += "</table>\n";
  if (summary.contains("parts") && !summary["parts"].empty()) {
    out += "<div class=\"scroll\"><table class=\"parts\"><tr><th>part</th><th>level</th><th>verdict</th><th>cases</th><th>not passing</th></tr>";
    for (const Json &part : summary["parts"]) {
      const std::string others = NotPassingText(part["counts"]);
      const std::string verdict = part.value("verdict", "");
      out += "<tr><td><code>" + Escape(part.value("part", "")) + "</code></td>" + Cell(part.value("level", "")) +
             Cell(verdict, verdict == "pass" ? "pass" : verdict == "fail" ? "fail" : "skip") +
             NumberCell(std::to_string(part.value("total", 0))) + Cell(others) + "</tr>";
    }
    out += "</table></div>\n";
  }
  return out;
}

std::string RootCausesSection(const Json &report, const CaseList &cases) {
  const std::vector<report::RootCauseGroup> causes = RootCausesOf(report);
  if (causes.empty()) return "";
  std::string out = "<h2 id=\"root-causes\">Failures by root cause (" + std::to_string(causes.size()) +
                    ")</h2>\n<table class=\"root-causes\"><tr><th>cases</th><th>status</th><th>clause</th>"
                    "<th>where</th><th>first line</th><th>a case, and its rerun</th></tr>";
  for (const report::RootCauseGroup &group : causes) {
    const std::string status = report::StatusName(group.status);
    std::string sample;
    if (!group.examples.empty()) sample += "<code>" + Escape(group.examples.front()) + "</code>";
    if (!group.rerun.empty()) sample += "<br><code>" + Escape(group.rerun) + "</code>";
    // Narrowed to the one subject when the group has one: its cases, not every case of its status.
    const CaseFilter filter{status, group.subjects.size() == 1 ? group.subjects.front() : "", "", "", group.clause};
    out += "<tr><td class=\"num\">" + cases.Link(filter, std::to_string(group.count), "show these cases") + "</td>" +
           Cell(status, status) + Cell(group.clause) +
           Cell(RootCauseWhere(group)) + "<td>" + Message(group.message) + "</td><td>" + sample + "</td></tr>";
  }
  return out + "</table>\n";
}

// The layouts each operator refused cleanly at create, beside the operator × dtype chart.
std::string RefusedLayoutsSection(const Json &report) {
  const RefusedLayouts refused = RefusedLayoutsOf(report);
  if (refused.ops.empty()) return "";
  std::string out = "<h2 id=\"layouts-refused\">Layouts refused</h2>\n<p>Views beyond the contiguous, offset and padded "
                    "ones that an operator refused cleanly at create: cases per operator and kind (they keep no level from "
                    "being reached).</p>\n<table class=\"layouts-refused\"><tr><th>operator</th>";
  for (const std::string &kind : refused.kinds) out += "<th>" + Escape(kind) + "</th>";
  out += "</tr>";
  for (const std::string &op : refused.ops) {
    out += "<tr><td><code>" + Escape(op) + "</code></td>";
    for (const std::string &kind : refused.kinds) {
      const auto found = refused.cases.find({op, kind});
      out += NumberCell(found == refused.cases.end() ? "–" : std::to_string(found->second));
    }
    out += "</tr>";
  }
  return out + "</table>\n";
}

std::string IdList(const Json &ids) {
  std::string out;
  for (const Json &id : ids) out += "<li><code>" + Escape(id.get<std::string>()) + "</code></li>";
  return out.empty() ? "<p>none</p>" : "<ul>" + out + "</ul>";
}

std::string ExpectationsSection(const Json &report) {
  if (!report.contains("expectations")) return "";
  const Json &expectations = report["expectations"];
  std::string out = "<h2 id=\"expectations\">Expectations</h2>\n<p>From <code>" +
                    Escape(expectations.value("file", "")) + "</code>.</p>\n";
  out += "<h3>Known failures that failed (xfail)</h3>" + IdList(expectations["xfail"]);
  out += "<h3>Listed as failing but passed</h3>" + IdList(expectations["unexpected_pass"]);
  out += "<h3>Flaky cases retried</h3>";
  if (expectations["flaky"].empty()) {
    out += "<p>none</p>";
  } else {
    out += "<table><tr><th>id</th><th>attempts</th><th>final status</th></tr>";
    for (const Json &flaky : expectations["flaky"]) {
      const std::string status = flaky.value("status", "");
      out += "<tr><td><code>" + Escape(flaky.value("id", "")) + "</code></td>" +
             NumberCell(std::to_string(flaky.value("attempts", 0))) + Cell(status, status) + "</tr>";
    }
    out += "</table>";
  }
  out += "<h3>Skipped by the file</h3>" + IdList(expectations["skipped"]);
  return out + "\n";
}

std::string OtherNonPassingSection(const Json &report) {
  const std::vector<CollapsedResults> groups = CollapsedNonPassing(report);
  if (groups.empty()) return "";
  std::string out = "<h2 id=\"not-passed\">Unsupported, skipped and expected-failing cases</h2>\n"
                    "<div class=\"scroll\"><table class=\"collapsed\"><tr><th>status</th><th>subject</th><th>cases</th><th>message</th><th>ids</th></tr>";
  for (const CollapsedResults &group : groups) {
    std::string ids;
    for (size_t i = 0; i < group.ids.size() && i < kIdsPerGroup; ++i) ids += "<code>" + Escape(group.ids[i]) + "</code><br>";
    if (group.ids.size() > kIdsPerGroup) ids += "… " + std::to_string(group.ids.size() - kIdsPerGroup) + " more";
    out += "<tr>" + Cell(group.status, group.status) + Cell(group.suite + "." + group.subject) +
           NumberCell(std::to_string(group.ids.size())) + "<td>" + Message(group.message) + "</td><td>" + ids + "</td></tr>";
  }
  return out + "</table></div>\n";
}

std::string ChartsSection(const Json &report, const CaseList &cases) {
  std::string out = "<h2 id=\"charts\">Charts</h2>\n<p class=\"note\">Hover a mark for its case; with scripts on, a click "
                    "on a legend entry hides or shows its series, and a matrix cell shows its cases.</p>\n";
  for (const Chart &chart : BuildCharts(report, &cases)) {
    if (chart.svg.empty()) {
      out += "<p class=\"note\" id=\"chart-" + chart.id + "-missing\">Not drawn: <b>" + Escape(chart.title) + "</b> — " +
             Escape(chart.note) + ".</p>\n";
      continue;
    }
    out += "<figure class=\"chart\" id=\"chart-" + chart.id + "\" data-chart=\"" + chart.id + "\"><figcaption>" +
           Escape(chart.title) + "</figcaption>" + chart.svg +
           (chart.note.empty() ? "" : "<p class=\"note\">" + Escape(chart.note) + ".</p>") + "</figure>\n";
  }
  return out;
}

std::string SuiteTablesSection(const Json &report, const CaseList &cases) {
  const std::vector<SubjectCounts> rows = CountsBySubject(report);
  std::string out = "<h2 id=\"suites\">Results per suite</h2>\n";
  for (const char *suite : {"rt", "op", "ccl"}) {
    std::string table;
    for (const SubjectCounts &row : rows) {
      if (row.suite != suite) continue;
      table += "<tr>" + Cell(row.subject) + Cell(row.mode) + "<td class=\"num\">" +
               cases.Link({"", row.suite + "." + row.subject, row.mode, "", ""}, std::to_string(row.total)) + "</td>";
      for (const char *status : kStatusOrder) {
        const auto found = row.counts.find(status);
        const int count = found == row.counts.end() ? 0 : found->second;
        const CaseFilter filter{status, row.suite + "." + row.subject, row.mode, "", ""};
        table += "<td class=\"num" + std::string(count > 0 && std::string(status) != "pass" ? std::string(" ") + status : "") +
                 "\">" + (count ? cases.Link(filter, std::to_string(count)) : "") + "</td>";
      }
      table += NumberCell(FormatMilliseconds(row.duration_ms)) + "</tr>";
    }
    if (table.empty()) continue;
    out += std::string("<h3 id=\"suite-") + suite + "\">" + suite + "</h3>\n<div class=\"scroll\"><table class=\"suite\"><tr><th>subject</th><th>mode</th><th>total</th>";
    for (const char *status : kStatusOrder) out += std::string("<th>") + status + "</th>";
    out += "<th>time</th></tr>" + table + "</table></div>\n";
  }
  return out;
}

std::string PerfSection(const Json &report) {
  std::string rows;
  for (const Json &result : report["results"]) {
    if (result.value("mode", "") != "perf") continue;
    const TimingFigures timing = TimingOf(result);
    const std::optional<Throughput> throughput = HeadlineThroughput(result);
    const std::string status = result.value("status", "");
    rows += "<tr><td><code>" + Escape(result.value("id", "")) + "</code></td>" + Cell(status, status) +
            NumberCell(throughput ? FormatNumber(throughput->value) + " " + throughput->unit : "–") +
            NumberCell(OptionalTime(timing.median_ms)) + NumberCell(OptionalTime(timing.p10_ms)) +
            NumberCell(OptionalTime(timing.p90_ms)) + CvCell(timing.cv) +
            NumberCell(timing.samples ? std::to_string(timing.samples) : "–") + "</tr>";
  }
  if (rows.empty()) return "";
  return "<h2 id=\"perf\">Performance cases</h2>\n<p class=\"note\">A cv over " + FormatNumber(report::kNoisyCv * 100) +
         " % is flagged <span class=\"noisy\">NOISY</span>: its times spread too wide to compare.</p>\n"
         "<div class=\"scroll\"><table class=\"perf\"><thead><tr><th>id</th><th>status</th><th>throughput</th>"
         "<th>median</th><th>p10</th><th>p90</th><th>cv</th><th>samples</th></tr></thead>" + rows + "</table></div>\n";
}

std::string PeaksSection(const Json &report) {
  if (!report.contains("roofline")) return "";
  const Json &roofline = report["roofline"];
  std::string out = "<h2 id=\"peaks\">Roofline peaks (" + Escape(roofline.value("device", "")) + ")</h2>\n"
                    "<table class=\"peaks\"><tr><th>peak</th><th>value</th><th>source</th><th>case or part</th></tr>";
  for (const Json &peak : roofline["peaks"]) {
    const std::string unit = peak.value("unit", "") == "gflops" ? "GFLOP/s" : "GB/s";
    const std::string origin = peak.contains("case_id") ? peak.value("case_id", "") : peak.value("part", "");
    out += "<tr>" + Cell(peak.value("name", "")) + NumberCell(FormatNumber(peak.value("value", 0.0)) + " " + unit) +
           Cell(peak.value("source", "")) + "<td><code>" + Escape(origin) + "</code></td></tr>";
  }
  return out + "</table>\n";
}

// Google Benchmark's time in its time_unit (ns, us, ms, s), in the page's units.
std::string BenchmarkTime(double value, const std::string &unit) {
  const double per_ms = unit == "ns" ? 1e6 : unit == "us" ? 1e3 : unit == "s" ? 1e-3 : unit == "ms" ? 1 : 0;
  return per_ms > 0 ? FormatMilliseconds(value / per_ms) : FormatNumber(value) + " " + unit;
}

std::string BenchmarksSection(const std::vector<BenchmarkFile> &files) {
  std::string out;
  for (size_t i = 0; i < files.size(); ++i) {
    const BenchmarkFile &file = files[i];
    std::vector<std::string> counters;
    for (const BenchmarkRow &row : file.rows) {
      for (const auto &counter : row.counters) {
        if (std::find(counters.begin(), counters.end(), counter.first) == counters.end()) counters.push_back(counter.first);
      }
    }
    out += "<h2 id=\"benchmark-" + std::to_string(i + 1) + "\">Google Benchmark: " + Escape(file.path) + "</h2>\n";
    std::string context;
    for (const char *key : {"date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "library_build_type"}) {
      const auto found = file.context.find(key);
      if (found != file.context.end()) context += (context.empty() ? "" : "; ") + std::string(key) + " " + found->second;
    }
    if (!context.empty()) out += "<p>" + Escape(context) + "</p>\n";
    out += "<table class=\"benchmark\"><tr><th>name</th><th>real time</th><th>cpu time</th><th>iterations</th>";
    for (const std::string &counter : counters) out += "<th>" + Escape(counter) + "</th>";
    out += "</tr>";
    for (const BenchmarkRow &row : file.rows) {
      out += "<tr><td><code>" + Escape(row.name) + "</code>" +
             (row.error.empty() ? "" : "<br><span class=\"fail\">" + Escape(row.error) + "</span>") + "</td>" +
             NumberCell(BenchmarkTime(row.real_time, row.time_unit)) + NumberCell(BenchmarkTime(row.cpu_time, row.time_unit)) + NumberCell(FormatNumber(row.iterations, 6));
      for (const std::string &counter : counters) {
        const auto found = row.counters.find(counter);
        out += NumberCell(found == row.counters.end() ? "" : FormatNumber(found->second));
      }
      out += "</tr>";
    }
    out += "</table>\n";
  }
  return out;
}

// A table of contents from the page's own headings and charts (so each entry names an id that
// exists): h2 entries, with the h3s and chart figures after each nested under it.
std::string TableOfContents(const std::string &body) {
  struct Opening {
    const char *text;
    bool nested;
    const char *text_end;
  };
  static const Opening kOpenings[] = {{"<h2 id=\"", false, "</h"},
                                      {"<h3 id=\"", true, "</h"},
                                      {"<figure class=\"chart\" id=\"", true, "</figcaption>"}};
  std::string items;
  bool nested = false;
  for (size_t at = body.find('<'); at != std::string::npos; at = body.find('<', at + 1)) {
    const Opening *opening = nullptr;
    for (const Opening &candidate : kOpenings) {
      if (body.compare(at, std::strlen(candidate.text), candidate.text) == 0) opening = &candidate;
    }
    if (opening == nullptr) continue;
    const size_t id_start = at + std::strlen(opening->text);
    const size_t id_end = body.find('"', id_start);
    const std::string id = body.substr(id_start, id_end - id_start);
    std::string text;
    bool in_tag = false;
    for (size_t i = body.find('>', id_end) + 1; i < body.size() && body.compare(i, std::strlen(opening->text_end), opening->text_end) != 0; ++i) {
      if (body[i] == '<') in_tag = true;
      else if (body[i] == '>') in_tag = false;
      else if (!in_tag) text += body[i];
    }
    if (!items.empty()) {
      items += opening->nested && !nested ? "<ul>" : !opening->nested && nested ? "</li></ul></li>" : "</li>";
    }
    nested = opening->nested;
    items += "<li><a href=\"#" + id + "\">" + text + "</a>";
  }
  if (!items.empty()) items += nested ? "</li></ul></li>" : "</li>";
  return "<nav id=\"toc\"><b>Contents</b><ul>" + items + "</ul></nav>\n";
}

}  // namespace

std::string RenderHtmlReport(const Json &report, const std::vector<BenchmarkFile> &benchmarks) {
  const CaseList cases(report);
  // What to fix first opens the page: the root causes, largest first, then the summary.
  const std::string sections = RootCausesSection(report, cases) + SummarySection(report, cases) +
                               ExpectationsSection(report) + cases.Section() + OtherNonPassingSection(report) +
                               ChartsSection(report, cases) + RefusedLayoutsSection(report) +
                               SuiteTablesSection(report, cases) + PerfSection(report) + PeaksSection(report) +
                               BenchmarksSection(benchmarks);
  const std::string body = HeaderSection(report) + TableOfContents(sections) + sections + "<script>" +
                           std::string(kPageScript) + "</script>";
  return HtmlPage("infinicts report: " + report["backend"].value("device_type", "") + " (" +
                      report["run"].value("started", "") + ")",
                  body);
}

}  // namespace infinicts::render
