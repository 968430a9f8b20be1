// The case files of the op suite (docs/usage.md "Case files"): suites/op/cases/<subject>.<set>.cases
// holds the problems of one operator's conformance or accuracy cases, one `<subject> <problem
// line>` a line, as `infinicts run --cases` reads them. The build compiles every file into the
// suite (case_files_table.cc.in), so the binary needs no file at run time, and a vendor runs or
// extends a copy with --cases without a recompile.
#pragma once

#include <string>
#include <vector>

#include "cts/ad_hoc_problems.h"

namespace infinicts::op_cases {

// A case file compiled into the suite: its path from the repository root, and its text.
struct CaseFile {
  const char *path;
  const char *text;
};
// Every case file, as the build found them (defined in the generated case_files_table.cc).
const std::vector<CaseFile> &CompiledCaseFiles();

// The sets a case file may hold: the problems of the conformance cases (the first one is the
// default problem of the cases that run once) and those of accuracy/matches_oracle.
inline constexpr const char *kConformanceSet = "conformance";
inline constexpr const char *kAccuracySet = "accuracy";

// The lines of `subject`'s `set`, read from `files`. Appends to *errors, naming file and line,
// what is not a line of that subject, and a missing or empty file.
std::vector<cts::AdHocProblem> CaseFileLines(const std::vector<CaseFile> &files, const std::string &subject,
                                             const std::string &set, std::vector<std::string> *errors);

}  // namespace infinicts::op_cases
