// `infinicts merge SHARD.json... --out FILE.json`: joins the reports of a sharded run
// (report/merge_reports.h), prints the failing cases and the summary as `run` does.
#include <cstdio>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "cli/outputs.h"
#include "cli/terminal.h"
#include "report/journal.h"
#include "report/load_report.h"
#include "report/merge_reports.h"

namespace infinicts::cli {

int MergeCommand(const MergeOptions &options) {
  std::vector<report::ShardReport> shards;
  std::string error;
  for (const std::string &path : options.inputs) {
    report::ShardReport shard{path, {}};
    std::string note;
    if (!report::LoadReportFile(path, &shard.json, &error, &note)) return UsageError(error);
    if (!note.empty()) std::fprintf(stderr, "infinicts: %s\n", note.c_str());
    shards.push_back(std::move(shard));
  }
  std::vector<std::string> inputs = options.inputs;
  for (const std::string &path : options.inputs) inputs.push_back(report::JournalPath(path));
  if (const std::string refused = RefusedOutputs({{"--out", options.out}}, inputs); !refused.empty()) {
    return UsageError(refused);
  }
  report::Report merged;
  if (!report::MergeShardReports(shards, options.argv, &merged, &error)) return UsageError(error);
  if (!report::WriteOutput(options.out, merged.Serialize(), report::WriteMode::kReplace, /*durable=*/true, &error)) {
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
  const std::vector<std::string> missing = report::MissingShards(shards);
  if (!missing.empty()) {
    std::string names;
    for (const std::string &shard : missing) names += (names.empty() ? "" : ", ") + shard;
    std::fprintf(stderr, "infinicts: shard%s %s missing: %s holds %zu of the %zu selected cases%s\n",
                 missing.size() == 1 ? "" : "s", names.c_str(), options.out.c_str(), merged.results().size(),
                 shards.front().json["run"]["shard"]["selected"].get<size_t>(),
                 options.allow_partial ? " (taken, as --allow-partial asks)" : "; --allow-partial takes it");
    if (!options.allow_partial) return kExitFailed;
  }
  return failed ? kExitFailed : kExitOk;
}

}  // namespace infinicts::cli
