#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "timing/timing.h"

namespace infinicts::timing {
namespace {

void WarnIgnored(const char *variable, const std::string &value, const char *expected) {
  std::fprintf(stderr, "infinicts: warning: ignoring %s=\"%s\" (expected %s)\n", variable, value.c_str(), expected);
}

}  // namespace

Options OptionsFromEnvironment() {
  Options options;

  if (const char *text = std::getenv("INFINICTS_PERF_BUDGET_MS"); text != nullptr && *text != '\0') {
    char *end = nullptr;
    errno = 0;
    const double budget = std::strtod(text, &end);
    if (errno == 0 && *end == '\0' && std::isfinite(budget) && budget > 0) {
      options.budget_ms = budget;
    } else {
      WarnIgnored("INFINICTS_PERF_BUDGET_MS", text, "a positive number of milliseconds");
    }
  }

  if (const char *text = std::getenv("INFINICTS_PERF_COLD_CACHE"); text != nullptr && *text != '\0') {
    const std::string value = text;
    if (value == "1") {
      options.cold_cache = true;
    } else if (value != "0") {
      WarnIgnored("INFINICTS_PERF_COLD_CACHE", value, "1 or 0");
    }
  }
  return options;
}

}  // namespace infinicts::timing
