// `infinicts compare BASE.json [BASE2.json ...] NEW.json`: loads every report (schema-checked),
// compares the last with the baselines (harness/regression), prints the summary and writes
// --md / --html.
#include <cstdio>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "cli/outputs.h"
#include "regression/compare_reports.h"
#include "regression/html_writer.h"
#include "regression/markdown_writer.h"
#include "regression/terminal_summary.h"
#include "report/journal.h"
#include "report/load_report.h"

namespace infinicts::cli {

int CompareCommand(const CompareOptions &options) {
  if (options.reports.size() < 2) return UsageError("compare needs a baseline report and a new report");
  std::vector<nlohmann::json> reports(options.reports.size());
  std::string error;
  for (size_t i = 0; i < reports.size(); ++i) {
    std::string note;
    if (!report::LoadReportFile(options.reports[i], &reports[i], &error, &note)) return UsageError(error);
    if (!note.empty()) std::fprintf(stderr, "infinicts: %s\n", note.c_str());
  }
  const std::vector<NamedOutput> outputs = {
      MarkdownOutput(options.md),
      {"--md-append", options.md_append, report::WriteMode::kAppend},
      {"--html", options.html},
  };
  std::vector<std::string> inputs;
  for (const std::string &path : options.reports) {
    inputs.push_back(path);
    inputs.push_back(report::JournalPath(path));
  }
  if (const std::string refused = RefusedOutputs(outputs, inputs); !refused.empty()) return UsageError(refused);

  const std::string &base_path = options.reports.front();
  const std::string &new_path = options.reports.back();
  regression::CompareSettings settings;
  settings.base_path = base_path;
  settings.new_path = new_path;
  settings.threshold = options.threshold;
  std::vector<const nlohmann::json *> baselines;
  for (size_t i = 0; i + 1 < reports.size(); ++i) {
    baselines.push_back(&reports[i]);
    if (i > 0) settings.more_base_paths.push_back(options.reports[i]);
  }
  const regression::Comparison comparison = regression::CompareReports(baselines, reports.back(), settings);
  if (comparison.matched == 0) {
    return UsageError(base_path + " and " + new_path + " have no case in common (" +
                      std::to_string(comparison.base.results) + " and " + std::to_string(comparison.next.results) +
                      " results): nothing to compare");
  }

  std::fputs(regression::TerminalSummary(comparison).c_str(), stdout);
  std::fflush(stdout);
  const std::string markdown =
      options.md.empty() && options.md_append.empty() ? std::string() : regression::ComparisonMarkdown(comparison);
  if (!WriteNamedOutput(outputs[0], markdown, &error) || !WriteNamedOutput(outputs[1], markdown, &error) ||
      !WriteNamedOutput(outputs[2], options.html.empty() ? std::string() : regression::ComparisonHtml(comparison),
                        &error))
    return UsageError(error);
  return comparison.Regressions() > 0 ? kExitFailed : kExitOk;
}

}  // namespace infinicts::cli
