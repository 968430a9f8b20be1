// `infinicts report FILE.json [--html FILE] [--md FILE] [--junit FILE] [--benchmark GB.json ...]`:
// renders a run's report. Every input is read and checked before any output is written.
#include <cstdio>
#include <iostream>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "render/benchmark_file.h"
#include "render/html_report.h"
#include "render/junit_report.h"
#include "render/markdown_report.h"
#include "report/atomic_file.h"
#include "report/load_report.h"

namespace infinicts::cli {

int ReportCommand(const ReportOptions &options) {
  nlohmann::json report;
  std::string error;
  if (!report::LoadReportFile(options.input, &report, &error)) return UsageError(error);
  std::vector<render::BenchmarkFile> benchmarks;
  for (const std::string &path : options.benchmarks) {
    render::BenchmarkFile file;
    if (!render::LoadBenchmarkFile(path, &file, &error)) return UsageError(error);
    benchmarks.push_back(std::move(file));
  }

  if (options.html.empty() && options.md.empty() && options.junit.empty()) {
    std::cout << render::RenderMarkdownReport(report, benchmarks);
    return kExitOk;
  }
  const struct {
    const std::string &path;
    std::string (*render)(const nlohmann::json &, const std::vector<render::BenchmarkFile> &);
  } outputs[] = {
      {options.html, render::RenderHtmlReport},
      {options.md, render::RenderMarkdownReport},
      {options.junit, [](const nlohmann::json &json, const std::vector<render::BenchmarkFile> &) {
         return render::RenderJunitReport(json);
       }},
  };
  for (const auto &output : outputs) {
    if (output.path.empty()) continue;
    if (!report::WriteFileAtomically(output.path, output.render(report, benchmarks), /*durable=*/false, &error)) {
      return UsageError(error);
    }
  }
  return kExitOk;
}

}  // namespace infinicts::cli
