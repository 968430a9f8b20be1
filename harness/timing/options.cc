#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "timing/timing.h"

namespace infinicts::timing {
namespace {

void WarnIgnored(const char *variable, const std::string &value, const char *expected) {
  std::fprintf(stderr, "infinicts: warning: ignoring %s=\"%s\" (expected %s)\n", variable, value.c_str(), expected);
}

// A whole count from `lowest` to 1000000 in the variable, if it is set and holds one; a
// warning when it holds anything else.
std::optional<int> CountFromEnvironment(const char *variable, long lowest) {
  const char *text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return std::nullopt;
  char *end = nullptr;
  errno = 0;
  const long count = std::strtol(text, &end, 10);
  if (errno == 0 && *end == '\0' && count >= lowest && count <= 1000000) return static_cast<int>(count);
  const std::string expected = "a count from " + std::to_string(lowest) + " to 1000000";
  WarnIgnored(variable, text, expected.c_str());
  return std::nullopt;
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
  // nccl-tests' -n and -w: a fixed count of timed and of warm-up iterations, whatever the
  // budget (`infinicts run --iters / --warmup`).
  if (const auto iterations = CountFromEnvironment("INFINICTS_PERF_ITERS", 1)) {
    options.min_iterations = options.max_iterations = *iterations;
  }
  if (const auto iterations = CountFromEnvironment("INFINICTS_PERF_WARMUP", 0)) {
    options.min_warmup = *iterations;
    options.warmup_ms = 0;
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
