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

  // nccl-tests' -n and -w: a fixed count of timed and of warm-up iterations, whatever the
  // budget (`infinicts run --iters / --warmup`).
  if (const char *text = std::getenv("INFINICTS_PERF_ITERS"); text != nullptr && *text != '\0') {
    char *end = nullptr;
    errno = 0;
    const long iterations = std::strtol(text, &end, 10);
    if (errno == 0 && *end == '\0' && iterations >= 1 && iterations <= 1000000) {
      options.min_iterations = options.max_iterations = static_cast<int>(iterations);
    } else {
      WarnIgnored("INFINICTS_PERF_ITERS", text, "a count from 1 to 1000000");
    }
  }
  if (const char *text = std::getenv("INFINICTS_PERF_WARMUP"); text != nullptr && *text != '\0') {
    char *end = nullptr;
    errno = 0;
    const long iterations = std::strtol(text, &end, 10);
    if (errno == 0 && *end == '\0' && iterations >= 0 && iterations <= 1000000) {
      options.min_warmup = static_cast<int>(iterations);
      options.warmup_ms = 0;
    } else {
      WarnIgnored("INFINICTS_PERF_WARMUP", text, "a count from 0 to 1000000");
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
