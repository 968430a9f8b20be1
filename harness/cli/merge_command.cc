// `infinicts merge SHARD.json... --out FILE.json`: joins the reports of a sharded run
// (report/merge_reports.h), prints the failing cases and the summary as `run` does.
#include <cstdio>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "cli/terminal.h"
#include "report/atomic_file.h"
#include "report/load_report.h"
#include "report/merge_reports.h"

namespace infinicts::cli {

int MergeCommand(const MergeOptions &options) {
  std::vector<report::ShardReport> shards;
  std::string error;
  for (const std::string &path : options.inputs) {
    report::ShardReport shard{path, {}};
    if (!report::LoadReportFile(path, &shard.json, &error)) return UsageError(error);
    shards.push_back(std::move(shard));
  }
  report::Report merged;
  if (!report::MergeShardReports(shards, options.argv, &merged, &error)) return UsageError(error);
  if (!report::WriteFileAtomically(options.out, merged.Serialize(), /*durable=*/true, &error)) {
    return UsageError("cannot write the report: " + error);
  }

  RunDisplay display(static_cast<int>(merged.results().size()), /*quiet=*/true);
  for (const report::CaseResult &result : merged.results()) display.OnResult(result);
  for (const std::string &failure : merged.run.failures) display.OnRunFailure(failure);
  display.Finish();
  PrintSummary(stdout, merged, options.out);
  std::fflush(stdout);

  const report::StatusCounts &counts = merged.counts();
  bool failed = !merged.run.failures.empty();
  for (report::Status status : report::kAllStatuses) failed = failed || (report::IsFailure(status) && counts[status] > 0);
  return failed ? kExitFailed : kExitOk;
}

}  // namespace infinicts::cli
