// Where the suite binaries are: next to the running infinicts executable
// (build/bin/infinicts-suite-<suite>), or in $INFINICTS_SUITE_DIR.
#pragma once

#include <string>
#include <vector>

namespace infinicts::runner {

inline const std::vector<std::string> &KnownSuites() {
  static const std::vector<std::string> suites = {"rt", "op", "ccl"};
  return suites;
}

// The running program's path (/proc/self/exe); empty when it cannot be read.
std::string RunningExecutable();
std::string SuiteDirectory();
std::string SuiteBinaryPath(const std::string &directory, const std::string &suite);
// The known suites whose binary is present in directory, in the order rt, op, ccl.
std::vector<std::string> PresentSuites(const std::string &directory);

}  // namespace infinicts::runner
