// Conformance levels (CONTRACT.md): minimal = InfiniRT device, stream, memory and
// guard plus the whole op suite; advanced = minimal plus InfiniRT events and the
// whole ccl suite. A level is reached when each of its parts has a case that
// passed and none of its cases ended unsupported, fail, crash, timeout or xfail;
// skipped cases are neutral, but a part whose cases were all skipped was not
// tested and does not count.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "report/case_result.h"

namespace infinicts::report {

struct LevelOutcome {
  bool reached = false;
  std::vector<std::string> reasons;  // why not, one line each; empty when reached
};

struct LevelOutcomes {
  LevelOutcome minimal;
  LevelOutcome advanced;
};

// The parts only the advanced level needs (rt subject event, the ccl suite):
// `--level minimal` leaves them out.
bool IsAdvancedOnly(const std::string &suite, const std::string &subject);

// Tallies results by level part as they arrive, so that evaluating stays cheap.
class LevelTally {
 public:
  void Add(const CaseResult &result);
  LevelOutcomes Evaluate() const;

 private:
  struct PartState {
    StatusCounts counts;
    std::string first_blocking_id;
  };
  LevelOutcome EvaluateParts(const std::vector<std::string> &parts) const;
  std::map<std::string, PartState> parts_;  // "rt.memory", "op", "ccl", …
};

}  // namespace infinicts::report
