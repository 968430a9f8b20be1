// `infinicts list`: the ids of the selected cases, one a line.
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
  if (!CollectCases(options.suites, selection, &suites, &error)) return UsageError(error);
  for (const SuiteCases &suite : suites) {
    for (const cts::ListedCase &listed : suite.cases) std::printf("%s\n", listed.id.c_str());
  }
  return kExitOk;
}

}  // namespace infinicts::cli
