// The cases a suite binary holds, as the runner sees them (one JSON object a line
// on `--cts-list`), and the identity rules that turn GoogleTest names into case ids.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace infinicts::cts {

struct ListedCase {
  std::string test;     // GoogleTest full name: "<mode>/<Fixture>.<test>/<param>" or "<Fixture>.<test>"
  std::string id;       // "<suite>.<subject>.<mode>/<test>[/<param…>]"
  std::string suite;    // rt, op, ccl
  std::string subject;  // device, stream, memory, event, guard, gemm, …
  std::string mode;     // conformance, accuracy, perf
  std::vector<std::string> clauses;
  nlohmann::json params = nlohmann::json::object();
  bool across_processes = false;  // can run one rank per process, under mpirun (cts/rank_spread.h)
  bool invalid_input = false;     // probes invalid input (cts::CaseInput::kInvalid): runs after the others
};

nlohmann::json ToJson(const ListedCase &listed);
ListedCase ListedCaseFromJson(const nlohmann::json &json);  // throws nlohmann::json::exception

// Every case registered in this binary, in GoogleTest's order. Aborts with a message
// when a test lacks metadata or two cases share an id: both are bugs of the suite.
std::vector<ListedCase> ListRegisteredCases(const std::string &suite);

// "MemcpyRoundTrip" -> "memcpy_round_trip"; already snake names stay as they are.
std::string SnakeCase(const std::string &name);

}  // namespace infinicts::cts
