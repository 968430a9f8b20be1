#include "runner/suite_binaries.h"

#include <limits.h>
#include <unistd.h>

#include <cstdlib>

namespace infinicts::runner {

std::string RunningExecutable() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  return length > 0 ? std::string(path, static_cast<size_t>(length)) : "";
}

std::string SuiteDirectory() {
  if (const char *override_dir = std::getenv("INFINICTS_SUITE_DIR"); override_dir && *override_dir) {
    return override_dir;
  }
  const std::string executable = RunningExecutable();
  if (executable.empty()) return ".";
  const size_t slash = executable.rfind('/');
  return slash == std::string::npos ? "." : executable.substr(0, slash);
}

std::string SuiteBinaryPath(const std::string &directory, const std::string &suite) {
  return directory + "/infinicts-suite-" + suite;
}

std::vector<std::string> PresentSuites(const std::string &directory) {
  std::vector<std::string> present;
  for (const std::string &suite : KnownSuites()) {
    if (access(SuiteBinaryPath(directory, suite).c_str(), X_OK) == 0) present.push_back(suite);
  }
  return present;
}

}  // namespace infinicts::runner
