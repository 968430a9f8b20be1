// Finding the suites a command asked for and the cases it selected, shared by list and run.
#pragma once

#include <string>
#include <vector>

#include "cts/case_list.h"
#include "runner/selection.h"

namespace infinicts::cli {

struct SuiteCases {
  std::string suite;
  std::string binary;
  std::vector<cts::ListedCase> cases;  // the selected ones
  size_t unfiltered = 0;               // how many the selection would take without its --filter
};

// The modes a command runs: those asked for, or conformance and accuracy.
std::vector<std::string> ModesOrDefault(const std::vector<std::string> &modes);

// Lists every requested suite (or every one present) and selects its cases.
// Returns false with a one-line reason (a suite binary missing or broken).
bool CollectCases(const std::vector<std::string> &requested_suites, const runner::Selection &selection,
                  std::vector<SuiteCases> *suites, std::string *error);

// The suites a run takes, given what the backend exports: those asked for, or without --suite
// every suite built whose interface the backend has. *missing_libraries names the library of
// each interface the backend exports nothing of ("libinfiniop.so"). False with the reason when
// --suite asks for such a suite.
bool SuitesToRun(const std::vector<std::string> &requested_suites, const std::vector<std::string> &exported,
                 const std::vector<std::string> &libraries, std::vector<std::string> *suites,
                 std::vector<std::string> *missing_libraries, std::string *error);

// "infinicts: <reason>" on stderr; returns kExitUsage.
int UsageError(const std::string &reason);

}  // namespace infinicts::cli
