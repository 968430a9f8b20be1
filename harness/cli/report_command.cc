// `infinicts report FILE.json [--html FILE] [--md FILE] [--md-append FILE] [--junit FILE]
// [--benchmark GB.json ...]`: renders a run's report, its summary computed again from its
// results. Every input is read and checked before any output is written.
#include <cstdio>
#include <iostream>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "render/benchmark_file.h"
#include "render/html_report.h"
#include "render/junit_report.h"
#include "render/markdown_report.h"
#include "cli/outputs.h"
#include "report/journal.h"
#include "report/report_from_json.h"
#include "report/load_report.h"

namespace infinicts::cli {
namespace {

// How the stored summary's status counts differ from those of the results, or "".
std::string SummaryDisagreement(const nlohmann::json &stored, const nlohmann::json &recomputed) {
  std::string differences;
  for (const auto &[key, value] : recomputed["summary"].items()) {
    if (!value.is_number_integer()) continue;
    const nlohmann::json &was = stored["summary"].value(key, nlohmann::json());
    if (was == value) continue;
    differences += (differences.empty() ? "" : ", ") + key + " " + (was.is_null() ? "missing" : was.dump()) +
                   " stored, " + value.dump() + " counted";
  }
  return differences;
}

}  // namespace


int ReportCommand(const ReportOptions &options) {
  nlohmann::json stored;
  std::string error, note;
  if (!report::LoadReportFile(options.input, &stored, &error, &note)) return UsageError(error);
  if (!note.empty()) std::fprintf(stderr, "infinicts: %s\n", note.c_str());
  std::vector<render::BenchmarkFile> benchmarks;
  for (const std::string &path : options.benchmarks) {
    render::BenchmarkFile file;
    if (!render::LoadBenchmarkFile(path, &file, &error)) return UsageError(error);
    benchmarks.push_back(std::move(file));
  }
  // What the renderers show is computed from the results, never taken from the stored summary.
  nlohmann::json report;
  if (!report::RecomputedReport(stored, &report, &error)) return UsageError(options.input + ": " + error);
  if (const std::string disagreement = SummaryDisagreement(stored, report); !disagreement.empty()) {
    std::fprintf(stderr, "infinicts: warning: %s: its stored summary disagrees with its results (%s); the summary shown "
                 "is computed from the results\n", options.input.c_str(), disagreement.c_str());
  }

  const std::vector<NamedOutput> outputs = {
      {"--html", options.html},
      MarkdownOutput(options.md),
      {"--md-append", options.md_append, report::WriteMode::kAppend},
      {"--junit", options.junit},
  };
  std::vector<std::string> inputs = options.benchmarks;
  inputs.push_back(options.input);
  inputs.push_back(report::JournalPath(options.input));
  if (const std::string refused = RefusedOutputs(outputs, inputs); !refused.empty()) return UsageError(refused);

  if (options.html.empty() && options.md.empty() && options.md_append.empty() && options.junit.empty()) {
    std::cout << render::RenderMarkdownReport(report, benchmarks);
    return kExitOk;
  }
  const std::string markdown = options.md.empty() && options.md_append.empty()
                                   ? std::string()
                                   : render::RenderMarkdownReport(report, benchmarks);
  const struct {
    const NamedOutput &output;
    std::string text;
  } rendered[] = {
      {outputs[0], options.html.empty() ? std::string() : render::RenderHtmlReport(report, benchmarks)},
      {outputs[1], markdown},
      {outputs[2], markdown},
      {outputs[3], options.junit.empty() ? std::string() : render::RenderJunitReport(report)},
  };
  for (const auto &each : rendered) {
    if (!WriteNamedOutput(each.output, each.text, &error)) return UsageError(error);
  }
  return kExitOk;
}

}  // namespace infinicts::cli
