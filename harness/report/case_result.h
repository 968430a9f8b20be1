// One finished case as the report holds it.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "report/status.h"

namespace infinicts::report {

struct CaseResult {
  std::string id;       // "<suite>.<subject>.<mode>/<test>[/<params…>]"
  std::string suite;    // rt, op, ccl
  std::string subject;  // device, memory, gemm, all_reduce, …
  std::string mode;     // conformance, accuracy, perf
  std::vector<std::string> clauses;
  Status status = Status::kFail;
  std::string message;
  double duration_ms = 0;
  nlohmann::json params = nlohmann::json::object();
  nlohmann::json metrics = nlohmann::json::object();  // numbers, or null for a value that was not finite
  nlohmann::json timing;  // perf cases: {method, warmup_iterations, samples_ms, …}; null elsewhere
  // What optional capability the case tests ("f64"): refused, it does not keep a level from
  // being reached; empty for the cases of what the spec requires.
  std::string optional_capability;
  // The case probes invalid input (cts::CaseInput::kInvalid): NULL or bad arguments.
  bool invalid_input = false;
  // A crash in a probe of invalid input (a NULL or bad argument the backend must refuse): counted
  // apart from crashes on valid input, which are memory bugs of the backend's working paths.
  bool crash_on_invalid_input = false;
  // Shard runs: the case's place in the whole selection (merge restores the run's order).
  std::optional<size_t> selection_index;
};

// Keys in the order the report shows them.
nlohmann::ordered_json ToJson(const CaseResult &result);
// Throws nlohmann::json::exception on a missing key or a wrong type, std::invalid_argument on an unknown status.
CaseResult CaseResultFromJson(const nlohmann::json &json);

}  // namespace infinicts::report
