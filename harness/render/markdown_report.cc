#include "render/markdown_report.h"

#include <algorithm>
#include <map>

#include "render/number_format.h"
#include "render/report_text.h"

namespace infinicts::render {
namespace {

constexpr size_t kFailuresShown = 50;  // job summaries have a size limit; the JSON has the rest
constexpr size_t kMessageChars = 200;

std::string Code(const std::string &text) {
  // A code span cannot hold a backtick that closes it; such ids are shown escaped instead.
  return text.find('`') == std::string::npos ? "`" + text + "`" : MarkdownCell(text);
}

// The result with the largest params.bytes of each series, for "bandwidth at largest size".
std::string LargestSizeTable(const std::vector<SeriesData> &series, const std::string &what) {
  if (series.empty()) return "";
  std::string out = "| " + what + " | size | GB/s | case |\n|---|---:|---:|---|\n";
  for (const SeriesData &line : series) {
    size_t largest = 0;
    for (size_t i = 1; i < line.points.size(); ++i) {
      if (line.points[i].first > line.points[largest].first) largest = i;
    }
    out += "| " + MarkdownCell(line.label) + " | " + FormatBytes(line.points[largest].first) + " | " +
           FormatNumber(line.points[largest].second) + " | " + Code(line.ids[largest]) + " |\n";
  }
  return out + "\n";
}

std::string PerfSection(const Json &report) {
  std::string out;
  const std::vector<OpThroughput> ops = OpThroughputs(report);
  if (!ops.empty()) {
    out += "### Operators: best throughput\n\n| operator | dtype | best | median | cases | best case |\n"
           "|---|---|---:|---:|---:|---|\n";
    for (const OpThroughput &row : ops) {
      out += "| " + MarkdownCell(row.op) + " | " + MarkdownCell(row.dtype) + " | " + FormatNumber(row.best) + " " +
             row.unit + " | " + FormatNumber(row.median) + " " + row.unit + " | " + std::to_string(row.cases) + " | " +
             Code(row.best_id) + " |\n";
    }
    out += "\n";
  }
  const std::string memcpy = LargestSizeTable(MemcpyBandwidthSeries(report), "memcpy");
  if (!memcpy.empty()) out += "### Memory copy bandwidth at the largest size\n\n" + memcpy;
  const std::string busbw = LargestSizeTable(CollectiveBusbwSeries(report), "collective");
  if (!busbw.empty()) out += "### Collective bus bandwidth at the largest size\n\n" + busbw;
  return out.empty() ? "" : "## Performance\n\n" + out;
}

// The operator × dtype matrix of the op suite's conformance and accuracy cases (the HTML
// report draws the same cells): passed/total and the worst status the backend was held to;
// an optional dtype the backend refused, as the spec allows, reads "refused (optional)".
std::string DtypeMatrixSection(const Json &report) {
  const StatusMatrix matrix = OpStatusMatrix(report);
  if (matrix.ops.empty()) return "";
  std::string out = "## Operators × dtypes\n\nPassed/total of the conformance and accuracy cases, and the worst status "
                    "of those the backend was held to.\n\n| operator |";
  for (const std::string &dtype : matrix.dtypes) out += " " + MarkdownCell(dtype) + " |";
  out += "\n|---|";
  for (size_t i = 0; i < matrix.dtypes.size(); ++i) out += "---|";
  out += "\n";
  for (const std::string &op : matrix.ops) {
    out += "| " + MarkdownCell(op) + " |";
    for (const std::string &dtype : matrix.dtypes) {
      const auto found = matrix.cells.find({op, dtype});
      std::string text = "–";
      if (found != matrix.cells.end()) {
        const StatusCell &cell = found->second;
        const int passed = cell.counts.count("pass") ? cell.counts.at("pass") : 0;
        if (cell.AllRefusedOptional()) {
          text = "refused (optional)";
        } else {
          text = std::to_string(passed) + "/" + std::to_string(cell.total) + " " + cell.worst;
          if (cell.refused_optional > 0) text += ", " + std::to_string(cell.refused_optional) + " refused (optional)";
        }
      }
      out += " " + MarkdownCell(text) + " |";
    }
    out += "\n";
  }
  return out;
}

std::string BenchmarkSection(const std::vector<BenchmarkFile> &files) {
  std::string out;
  for (const BenchmarkFile &file : files) {
    std::vector<std::string> counters;
    for (const BenchmarkRow &row : file.rows) {
      for (const auto &counter : row.counters) {
        if (std::find(counters.begin(), counters.end(), counter.first) == counters.end()) counters.push_back(counter.first);
      }
    }
    out += "## Google Benchmark: " + MarkdownCell(file.path) + "\n\n| name | real time | cpu time | iterations |";
    for (const std::string &counter : counters) out += " " + MarkdownCell(counter) + " |";
    out += "\n|---|---:|---:|---:|";
    for (size_t i = 0; i < counters.size(); ++i) out += "---:|";
    out += "\n";
    for (const BenchmarkRow &row : file.rows) {
      out += "| " + Code(row.name) + (row.error.empty() ? "" : " (error: " + MarkdownCell(row.error) + ")") + " | " +
             FormatNumber(row.real_time) + " " + row.time_unit + " | " + FormatNumber(row.cpu_time) + " " + row.time_unit +
             " | " + FormatNumber(row.iterations, 6) + " |";
      for (const std::string &counter : counters) {
        const auto found = row.counters.find(counter);
        out += " " + (found == row.counters.end() ? std::string() : FormatNumber(found->second)) + " |";
      }
      out += "\n";
    }
    out += "\n";
  }
  return out;
}

}  // namespace

std::string MarkdownCell(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (c == '<') {
      out += "&lt;";  // GitHub would render raw tags; a summary has no HTML of its own
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']') out += '\\';
      out += c;
    }
  }
  return out;
}

std::string RenderMarkdownReport(const Json &report, const std::vector<BenchmarkFile> &benchmarks) {
  const Json &summary = report["summary"];
  std::string out = "# infinicts report: " + MarkdownCell(report["backend"].value("device_type", "")) + "\n\n";
  out += "- tool: " + MarkdownCell(ToolLine(report)) + "\n";
  out += "- device: " + MarkdownCell(DeviceLine(report)) + "\n";
  out += "- host: " + MarkdownCell(HostLine(report)) + "\n";
  out += "- run: " + MarkdownCell(RunLine(report)) + "\n\n";

  // What to fix first opens the page: one line per bug, largest first, with a case to rerun.
  const std::vector<report::RootCauseGroup> causes = RootCausesOf(report);
  if (!causes.empty()) {
    out += "## Failures by root cause (" + std::to_string(causes.size()) +
           ")\n\n| cases | status | clause | where | first line | a case | its rerun |\n|---:|---|---|---|---|---|---|\n";
    for (size_t i = 0; i < causes.size() && i < kFailuresShown; ++i) {
      std::string message = causes[i].message;
      if (message.size() > kMessageChars) message = message.substr(0, kMessageChars) + "…";
      const std::string sample = causes[i].examples.empty() ? "" : Code(causes[i].examples.front());
      const std::string rerun = causes[i].rerun.empty() ? "" : Code(causes[i].rerun);
      out += "| " + std::to_string(causes[i].count) + " | " + report::StatusName(causes[i].status) + " | " +
             causes[i].clause + " | " + MarkdownCell(RootCauseWhere(causes[i])) + " | " + MarkdownCell(message) + " | " +
             sample + " | " + rerun + " |\n";
    }
    if (causes.size() > kFailuresShown) out += "\n… and " + std::to_string(causes.size() - kFailuresShown) + " more in the JSON report.\n";
    out += "\n";
  }

  const std::vector<SummaryColumn> columns = SummaryColumns(summary);
  out += "## Summary\n\n| total |";
  for (const SummaryColumn &column : columns) out += " " + column.label + " |";
  out += "\n|---:|";
  for (size_t i = 0; i < columns.size(); ++i) out += "---:|";
  out += "\n| " + std::to_string(summary.value("total", 0)) + " |";
  for (const SummaryColumn &column : columns) out += " " + std::to_string(column.count) + " |";
  out += "\n\n## Conformance levels\n\n";
  if (!JudgesLevels(report)) out += std::string("- ") + kLevelsNotJudged + "\n";
  for (const char *level : {"minimal", "advanced"}) {
    if (!JudgesLevels(report)) break;
    const std::string verdict = LevelVerdict(report, level);
    out += std::string("- **") + level + "**: " + verdict;
    if (verdict == "reached" && summary.contains("judged_on_devices")) {
      out += " on " + std::to_string(summary.value("judged_on_devices", 0)) + " device(s)";
    }
    out += "\n";
    if (verdict != "reached" && summary.contains("levels_detail")) {
      for (const Json &reason : summary["levels_detail"][level]) out += "  - " + MarkdownCell(reason.get<std::string>()) + "\n";
    }
  }
  if (summary.contains("parts") && !summary["parts"].empty()) {
    out += "\n| part | level | verdict | cases | not passing |\n|---|---|---|---:|---|\n";
    for (const Json &part : summary["parts"]) {
      const std::string others = NotPassingText(part["counts"]);
      out += "| " + Code(part.value("part", "")) + " | " + part.value("level", "") + " | " + part.value("verdict", "") +
             " | " + std::to_string(part.value("total", 0)) + " | " + others + " |\n";
    }
  }

  if (const std::string matrix = DtypeMatrixSection(report); !matrix.empty()) out += "\n" + matrix;
  if (const RefusedLayouts refused = RefusedLayoutsOf(report); !refused.ops.empty()) {
    out += "\n## Layouts refused\n\nViews beyond the contiguous, offset and padded ones that an operator refused cleanly at "
           "create (cases per operator and kind; they keep no level from being reached).\n\n| operator |";
    for (const std::string &kind : refused.kinds) out += " " + MarkdownCell(kind) + " |";
    out += "\n|---|";
    for (size_t i = 0; i < refused.kinds.size(); ++i) out += "---:|";
    out += "\n";
    for (const std::string &op : refused.ops) {
      out += "| " + MarkdownCell(op) + " |";
      for (const std::string &kind : refused.kinds) {
        const auto found = refused.cases.find({op, kind});
        out += " " + (found == refused.cases.end() ? std::string("–") : std::to_string(found->second)) + " |";
      }
      out += "\n";
    }
  }

  const std::vector<const Json *> failed = FailedResults(report);
  out += "\n## Failures (" + std::to_string(failed.size()) + ")\n\n";
  if (failed.empty()) {
    out += "None.\n";
  } else {
    out += "| id | status | message |\n|---|---|---|\n";
    for (size_t i = 0; i < failed.size() && i < kFailuresShown; ++i) {
      std::string message = FirstLine(failed[i]->value("message", ""));
      if (message.size() > kMessageChars) message = message.substr(0, kMessageChars) + "…";
      out += "| " + Code(failed[i]->value("id", "")) + " | " + failed[i]->value("status", "") + " | " +
             MarkdownCell(message) + " |\n";
    }
    if (failed.size() > kFailuresShown) {
      out += "\n… and " + std::to_string(failed.size() - kFailuresShown) + " more in the JSON report.\n";
    }
  }
  std::map<std::string, size_t> others;
  for (const CollapsedResults &group : CollapsedNonPassing(report)) others[group.status] += group.ids.size();
  if (!others.empty()) {
    out += "\nAlso:";
    for (const auto &[status, count] : others) out += " " + std::to_string(count) + " " + status + ";";
    out.back() = '.';
    out += "\n";
  }
  if (report.contains("expectations")) {
    const Json &expectations = report["expectations"];
    out += "\n## Expectations (" + MarkdownCell(expectations.value("file", "")) + ")\n\n";
    out += "- known failures that failed: " + std::to_string(expectations["xfail"].size()) + "\n";
    out += "- listed as failing but passed: " + std::to_string(expectations["unexpected_pass"].size()) + "\n";
    for (const Json &id : expectations["unexpected_pass"]) out += "  - " + Code(id.get<std::string>()) + "\n";
    out += "- flaky cases retried: " + std::to_string(expectations["flaky"].size()) + "\n";
    out += "- skipped by the file: " + std::to_string(expectations["skipped"].size()) + "\n";
  }
  const std::string perf = PerfSection(report);
  if (!perf.empty()) out += "\n" + perf;
  const std::string bench = BenchmarkSection(benchmarks);
  if (!bench.empty()) out += "\n" + bench;
  return out;
}

}  // namespace infinicts::render
