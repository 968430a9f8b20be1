// `infinicts compare BASE.json NEW.json`: loads both reports (schema-checked), compares
// them (harness/regression), prints the summary and writes --md / --html.
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
  nlohmann::json base, next;
  std::string error;
  for (const auto &[path, json] : {std::pair{&options.base, &base}, std::pair{&options.next, &next}}) {
    std::string note;
    if (!report::LoadReportFile(*path, json, &error, &note)) return UsageError(error);
    if (!note.empty()) std::fprintf(stderr, "infinicts: %s\n", note.c_str());
  }
  const std::vector<NamedOutput> outputs = {
      MarkdownOutput(options.md),
      {"--md-append", options.md_append, report::WriteMode::kAppend},
      {"--html", options.html},
  };
  const std::vector<std::string> inputs = {options.base, options.next, report::JournalPath(options.base),
                                           report::JournalPath(options.next)};
  if (const std::string refused = RefusedOutputs(outputs, inputs); !refused.empty()) return UsageError(refused);

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
  const std::string markdown =
      options.md.empty() && options.md_append.empty() ? std::string() : regression::ComparisonMarkdown(comparison);
  if (!WriteNamedOutput(outputs[0], markdown, &error) || !WriteNamedOutput(outputs[1], markdown, &error) ||
      !WriteNamedOutput(outputs[2], options.html.empty() ? std::string() : regression::ComparisonHtml(comparison),
                        &error))
    return UsageError(error);
  return comparison.Regressions() > 0 ? kExitFailed : kExitOk;
}

}  // namespace infinicts::cli
