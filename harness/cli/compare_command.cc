// `infinicts compare BASE.json NEW.json`: loads both reports (schema-checked), compares
// them (harness/regression), prints the summary and writes --md / --html.
#include <cstdio>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "regression/compare_reports.h"
#include "regression/html_writer.h"
#include "regression/markdown_writer.h"
#include "regression/terminal_summary.h"
#include "report/atomic_file.h"
#include "report/load_report.h"

namespace infinicts::cli {
namespace {

bool WriteOutput(const std::string &path, const std::string &text, std::string *error) {
  if (path.empty()) return true;
  return report::WriteFileAtomically(path, text, /*durable=*/false, error);
}

}  // namespace

int CompareCommand(const CompareOptions &options) {
  nlohmann::json base, next;
  std::string error;
  if (!report::LoadReportFile(options.base, &base, &error)) return UsageError(error);
  if (!report::LoadReportFile(options.next, &next, &error)) return UsageError(error);

  regression::CompareSettings settings;
  settings.base_path = options.base;
  settings.new_path = options.next;
  settings.threshold = options.threshold;
  const regression::Comparison comparison = regression::CompareReports(base, next, settings);
  if (comparison.matched == 0) {
    return UsageError(options.base + " and " + options.next + " have no case in common (" +
                      std::to_string(comparison.base.results) + " and " + std::to_string(comparison.next.results) +
                      " results): nothing to compare");
  }

  std::fputs(regression::TerminalSummary(comparison).c_str(), stdout);
  std::fflush(stdout);
  if (!WriteOutput(options.md, regression::ComparisonMarkdown(comparison), &error) ||
      !WriteOutput(options.html, regression::ComparisonHtml(comparison), &error))
    return UsageError(error);
  return comparison.Regressions() > 0 ? kExitFailed : kExitOk;
}

}  // namespace infinicts::cli
