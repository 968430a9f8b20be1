// `infinicts list`: the ids of the selected cases, one a line (with --long, each case's clauses
// and parameters too), then on stderr how many there are.
#include <cstdio>

#include "cli/case_selection.h"
#include "cli/commands.h"

namespace infinicts::cli {

int ListCommand(const ListOptions &options) {
  runner::Selection selection;
  selection.modes = ModesOrDefault(options.modes);
  selection.filter = runner::CaseFilter(options.filters);
  std::vector<SuiteCases> suites;
  std::string error;
  std::vector<std::string> suite_names = options.suites;
  ProblemLinesFile problem_lines;
  if (options.problems.Given() && !problem_lines.Open(options.problems, &suite_names, &error)) return UsageError(error);
  selection.subjects = problem_lines.subjects();
  if (options.sweep.Given()) {
    if (options.problems.Given()) return UsageError("--coll sweeps collectives, --problem/--cases run operators: one or the other");
    std::vector<std::string> modes = options.modes;
    if (!ApplyCollectiveSweep(options.sweep, &suite_names, &modes, &selection.subjects, &error)) return UsageError(error);
    selection.modes = modes;
  }
  if (!CollectCases(suite_names, selection, &suites, &error)) return UsageError(error);
  size_t listed_count = 0, unfiltered = 0;
  for (const SuiteCases &suite : suites) {
    unfiltered += suite.unfiltered;
    for (const cts::ListedCase &listed : suite.cases) {
      ++listed_count;
      if (!options.long_format) {
        std::printf("%s\n", listed.id.c_str());
        continue;
      }
      std::string clauses;
      for (const std::string &clause : listed.clauses) clauses += (clauses.empty() ? "" : ",") + clause;
      std::printf("%s\t%s\t%s%s\n", listed.id.c_str(), clauses.c_str(), listed.params.dump().c_str(),
                  listed.invalid_input ? "\tinvalid input" : "");
    }
  }
  std::fflush(stdout);
  if (listed_count == 0) {
    return UsageError("no case matches the selected suites, modes and filter (of " + std::to_string(unfiltered) +
                      " cases in the suites asked for)");
  }
  std::fprintf(stderr, "%zu case%s", listed_count, listed_count == 1 ? "" : "s");
  if (!options.filters.empty()) std::fprintf(stderr, " (%zu without --filter)", unfiltered);
  std::fprintf(stderr, "\n");
  return kExitOk;
}

}  // namespace infinicts::cli
