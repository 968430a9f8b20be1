// `infinicts fuzz` (docs/usage.md "Fuzzing"): random problems of one operator or all of them,
// drawn from the op suite's declarations (suites/op/common/problem_fuzzing.h), run against the
// oracle in rounds until the budget is spent; each new failure is shrunk to the simplest
// problem that still fails the same way and printed as a problem line with its rerun command.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace infinicts::cli {

struct FuzzOptions {
  std::vector<std::string> backends;
  std::string device;
  std::string device_ids;
  std::string op = "all";
  uint64_t seed = 1;
  double budget_s = 60;
  size_t draws = 8;        // problems per operator per round
  double timeout_s = 60;   // per case
  std::string out;         // the report; empty: reports/out/fuzz-<device>-<time>.json
  std::vector<std::string> argv;
};

int FuzzCommand(const FuzzOptions &options);

// "60s", "2m", "1h", "90" (seconds); false when it is none of those.
bool ParseBudget(const std::string &text, double *seconds);

}  // namespace infinicts::cli
