// --op NAME --problem LINE and --cases FILE (docs/usage.md "Problem lines"): the problems a
// run or a listing takes instead of the compiled-in ones. They travel to the op suite in a
// private file named by $INFINICTS_PROBLEMS (cts/ad_hoc_problems.h), which the suite parses
// while it declares its cases.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "cli/case_selection.h"
#include "runner/interrupt.h"

namespace infinicts::cli {

struct ProblemOptions {
  std::string op;                     // --op: the operator of every --problem
  std::vector<std::string> problems;  // --problem, repeatable
  std::string cases_file;             // --cases FILE: "<operator> <problem line>" per line
  bool Given() const { return !op.empty() || !problems.empty() || !cases_file.empty(); }
};

class ProblemLinesFile {
 public:
  ProblemLinesFile() = default;
  ProblemLinesFile(const ProblemLinesFile &) = delete;
  ProblemLinesFile &operator=(const ProblemLinesFile &) = delete;
  ~ProblemLinesFile();

  // Checks the options against the suites asked for (only op takes problems; none asked
  // means op), writes the lines and sets $INFINICTS_PROBLEMS. *suites becomes {"op"}.
  bool Open(const ProblemOptions &options, std::vector<std::string> *suites, std::string *error);

  // The operators the lines name: a selection takes only their cases (the op suite's other
  // cases, such as the handle's, take no problem).
  std::vector<std::string> subjects() const { return {subjects_.begin(), subjects_.end()}; }

 private:
  runner::OwnedPath file_;  // the lines, removed with this object
  std::set<std::string> subjects_;
};


}  // namespace infinicts::cli
