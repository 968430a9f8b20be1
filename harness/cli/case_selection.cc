#include "cli/case_selection.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "cli/commands.h"
#include "runner/case_listing.h"
#include "runner/suite_binaries.h"

namespace infinicts::cli {

std::vector<std::string> ModesOrDefault(const std::vector<std::string> &modes) {
  if (!modes.empty()) return modes;
  return {"conformance", "accuracy"};
}

bool CollectCases(const std::vector<std::string> &requested_suites, const runner::Selection &selection,
                  std::vector<SuiteCases> *suites, std::string *error) {
  const std::string directory = runner::SuiteDirectory();
  std::vector<std::string> names;
  if (requested_suites.empty()) {
    names = runner::PresentSuites(directory);
    if (names.empty()) {
      *error = "no suite binary (infinicts-suite-rt, -op, -ccl) in " + directory;
      return false;
    }
  } else {
    // In the canonical order, each once, whatever order the user wrote them in.
    for (const std::string &suite : runner::KnownSuites()) {
      if (std::find(requested_suites.begin(), requested_suites.end(), suite) != requested_suites.end())
        names.push_back(suite);
    }
  }
  for (const std::string &suite : names) {
    SuiteCases entry;
    entry.suite = suite;
    entry.binary = runner::SuiteBinaryPath(directory, suite);
    if (access(entry.binary.c_str(), X_OK) != 0) {
      *error = "the " + suite + " suite is not built: no executable " + entry.binary;
      return false;
    }
    std::vector<cts::ListedCase> listed;
    if (!runner::ListSuiteCases(entry.binary, &listed, error)) return false;
    entry.cases = runner::SelectCases(listed, selection);
    runner::Selection unfiltered = selection;
    unfiltered.filter = runner::CaseFilter();
    entry.unfiltered = runner::SelectCases(listed, unfiltered).size();
    suites->push_back(std::move(entry));
  }
  return true;
}

bool SuitesToRun(const std::vector<std::string> &requested_suites, const std::vector<std::string> &exported,
                 const std::vector<std::string> &libraries, std::vector<std::string> *suites,
                 std::vector<std::string> *missing_libraries, std::string *error) {
  // The runtime is always loaded (a backend without it cannot be loaded at all).
  const struct {
    const char *suite, *prefix, *library;
  } interfaces[] = {{"op", "infiniop", "libinfiniop.so"}, {"ccl", "infiniccl", "libinfiniccl.so"}};
  std::vector<std::string> absent;
  for (const auto &interface : interfaces) {
    const bool any = std::any_of(exported.begin(), exported.end(), [&](const std::string &symbol) {
      return symbol.rfind(interface.prefix, 0) == 0;
    });
    if (any) continue;
    if (std::find(requested_suites.begin(), requested_suites.end(), interface.suite) != requested_suites.end()) {
      std::string loaded;
      for (const std::string &library : libraries) loaded += (loaded.empty() ? "" : ", ") + library;
      *error = std::string("--suite ") + interface.suite + " asks for cases the backend cannot run: it has no " +
               interface.library + " (it loaded " + loaded + ")";
      return false;
    }
    absent.push_back(interface.suite);
    missing_libraries->push_back(interface.library);
  }
  *suites = requested_suites;
  if (requested_suites.empty() && !absent.empty()) {
    for (const std::string &suite : runner::PresentSuites(runner::SuiteDirectory())) {
      if (std::find(absent.begin(), absent.end(), suite) == absent.end()) suites->push_back(suite);
    }
    if (suites->empty()) {
      *error = "the backend exports none of the interfaces of the suites built";
      return false;
    }
  }
  return true;
}

int UsageError(const std::string &reason) {
  std::fprintf(stderr, "infinicts: %s\n", reason.c_str());
  return kExitUsage;
}

}  // namespace infinicts::cli
