// `infinicts run --backend A --against B` (docs/usage.md "Two backends side by side"): the
// same selection on two backends. B runs first, alone with the cases there are two sides to
// (accuracy/matches_against and perf), saving each side-by-side case's outputs; then A runs
// the whole selection, comparing its outputs with B's (spec OP-ACC-2) and carrying B's perf
// medians beside its own. A's report names B's, which is written beside it.
#pragma once

#include <functional>
#include <string>

#include "cli/commands.h"
#include "cts/case_list.h"
#include "report/case_result.h"

namespace infinicts::cli {

// Runs the two sides with `run` (one plain run of its options) and returns A's exit code, or
// kExitUsage when either side cannot start.
int RunSideBySide(const RunOptions &options, const std::function<int(const RunOptions &)> &run);

// The other backend's run takes only the cases with two sides.
bool HasTwoSides(const cts::ListedCase &listed);

// A perf result of the backend under test, given the other's medians: their median and
// `speedup_vs_against` (theirs over ours: above 1, the backend under test is faster).
void AddOtherSide(const std::map<std::string, double> &other_medians_ms, report::CaseResult *result);

// "reports/out/x.json" -> "reports/out/x.against.json": where the other backend's report goes.
std::string OtherSideReportPath(const std::string &report_path);

}  // namespace infinicts::cli
