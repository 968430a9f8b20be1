// Conformance levels (docs/usage.md "Conformance levels"): minimal = InfiniRT device, stream,
// memory and guard plus the operators; advanced = minimal plus InfiniRT events and the
// collectives. Each part has its own verdict: rt.device, rt.stream, rt.memory, rt.guard,
// rt.event, op.<operator> (and op.handle, op.tensor_descriptor), ccl; and the optional parts
// rt.graph and rt.resource_snapshot, whose verdicts are reported but decide no level.
//
// A level is reached when every part of it ran, each has a case that passed, and none of its
// cases ended unsupported, fail, blocked, crash, timeout or xfail; skipped cases are neutral, and
// so is a case that checks SHOULD clauses alone (report/spec_clauses.h), whatever its status
// (a part whose cases all skipped was not tested), and so are refused optional capabilities
// (F64, integer Add: unsupported cases that name one), which are listed as missing. A level is judged only on a complete run
// of all its parts: a run narrowed (by --filter, --suite, --mode, --expect skips) or cut short
// is "not judged", with the reasons, and never "reached". Why a level was not reached lists
// the failures by root cause (report/root_causes.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "report/case_result.h"
#include "report/root_causes.h"

namespace infinicts::report {

struct LevelOutcome {
  bool reached = false;
  bool judged = true;
  std::vector<std::string> reasons;  // why not reached or not judged, one line each; empty when reached
  // "reached", "not reached" or "not judged".
  const char *Verdict() const { return reached ? "reached" : judged ? "not reached" : "not judged"; }
};

struct LevelOutcomes {
  LevelOutcome minimal;
  LevelOutcome advanced;
};

// What the run covered: only a run of every part of a level judges it.
struct RunScope {
  bool complete = true;                 // false while running, or when killed or interrupted
  std::vector<std::string> narrowed;    // what left cases out ("--filter 'rt.*' selected …"); judges no level
  bool minimal_only = false;            // --level minimal: the advanced parts were left out
  bool conformance_modes = true;        // false for a perf-only run, which judges no level
};

// The verdict of one part: "pass", "fail" (a case failed, was blocked, crashed, timed out or
// was an expected failure), "unsupported" (only unsupported cases keep it from passing),
// "skipped" (most of its cases skipped for lack of devices or ranks: what passed says little)
// or "untested" (no case passed).
struct PartVerdict {
  std::string part;
  std::string level;  // "minimal", "advanced" or "optional" (in no level)
  std::string verdict;
  StatusCounts counts;
  int skipped_for_capacity = 0;  // skips of "needs N devices; the run has M"
  std::string needs;             // the most such a skip asked for: "8 devices"; "" when none
};

// An optional capability (F64, integer Add) the backend refused in one part.
struct MissingCapability {
  std::string part;
  std::string capability;
  int cases = 0;
  std::string first;  // the first case that found it missing
};

// The parts only the advanced level needs (rt subject event, the ccl suite):
// `--level minimal` leaves them out.
bool IsAdvancedOnly(const std::string &suite, const std::string &subject);

// Tallies results by level part as they arrive, so that evaluating stays cheap.
class LevelTally {
 public:
  void Add(const CaseResult &result);
  LevelOutcomes Evaluate(const RunScope &scope = {}) const;
  std::vector<PartVerdict> Parts() const;  // in part order: rt, op, ccl
  const std::vector<MissingCapability> &MissingCapabilities() const { return missing_; }

 private:
  struct PartState {
    StatusCounts counts;
    std::map<Status, std::string> first_id;  // the first case of each status
    int optional_missing = 0;                // of counts' unsupported: refused optional capabilities
    StatusCounts should_only;                // of counts: the cases that check SHOULD clauses alone
    // The first unsupported case that is not an optional capability.
    std::string first_required_unsupported;
    int skipped_for_capacity = 0;  // skipped: "needs N <unit>; the run has M"
    int most_needed = 0;
    std::string needed_unit;
  };
  LevelOutcome EvaluateLevel(bool advanced) const;
  std::map<std::string, PartState> parts_;
  RootCauses minimal_causes_;  // failures in the minimal parts
  RootCauses all_causes_;      // in every part
  std::vector<MissingCapability> missing_;
};

}  // namespace infinicts::report
