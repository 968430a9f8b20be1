#include "report/levels.h"

#include <algorithm>
#include <regex>

#include "report/spec_clauses.h"

namespace infinicts::report {
namespace {

// The runtime parts each level needs by name; the operators are "op.<subject>", any number of
// them, and the collectives one part, "ccl".
const std::vector<std::string> kMinimalRuntimeParts = {"rt.device", "rt.stream", "rt.memory", "rt.guard"};
const std::vector<std::string> kAdvancedOnlyParts = {"rt.event", "ccl"};
// Parts outside both levels (InfiniCore's integration guide names neither): their verdicts are
// reported, and their failures fail the run, but they neither block nor reach a level.
const std::vector<std::string> kOptionalParts = {"rt.graph", "rt.resource_snapshot"};
constexpr size_t kRootCausesShown = 8;

std::string PartOf(const std::string &suite, const std::string &subject) {
  return suite == "ccl" ? suite : suite + "." + subject;
}

bool IsAdvancedPart(const std::string &part) {
  return std::find(kAdvancedOnlyParts.begin(), kAdvancedOnlyParts.end(), part) != kAdvancedOnlyParts.end();
}

bool IsOptionalPart(const std::string &part) {
  return std::find(kOptionalParts.begin(), kOptionalParts.end(), part) != kOptionalParts.end();
}

const char *LevelOf(const std::string &part) {
  if (IsOptionalPart(part)) return "optional";
  return IsAdvancedPart(part) ? "advanced" : "minimal";
}

// rt parts in the spec's order, then the operators, then the collectives.
int PartRank(const std::string &part) {
  static const std::vector<std::string> runtime = {"rt.device", "rt.stream", "rt.memory", "rt.guard", "rt.event"};
  const auto found = std::find(runtime.begin(), runtime.end(), part);
  if (found != runtime.end()) return static_cast<int>(found - runtime.begin());
  if (part.rfind("rt.", 0) == 0) return 10;
  return part == "ccl" ? 30 : 20;
}

// "needs 8 devices; the run has 2" (a case the hardware of the run cannot host): 8, "devices".
bool SkippedForCapacity(const std::string &message, int *needed, std::string *unit) {
  static const std::regex pattern(R"(^needs (\d{1,6}) ([^;]+); the run has \d+)");
  std::smatch match;
  if (!std::regex_search(message, match, pattern)) return false;
  *needed = std::stoi(match[1].str());
  *unit = match[2].str();
  return true;
}

}  // namespace

bool IsAdvancedOnly(const std::string &suite, const std::string &subject) {
  return IsAdvancedPart(PartOf(suite, subject));
}

void LevelTally::Add(const CaseResult &result) {
  // Levels judge conformance; how fast a backend is never decides whether it conforms.
  if (result.mode == "perf") return;
  const std::string part = PartOf(result.suite, result.subject);
  PartState &state = parts_[part];
  state.counts.Add(result.status);
  state.first_id.emplace(result.status, result.id);
  if (result.status == Status::kSkip) {
    int needed = 0;
    std::string unit;
    if (SkippedForCapacity(result.message, &needed, &unit)) {
      ++state.skipped_for_capacity;
      if (needed > state.most_needed) {
        state.most_needed = needed;
        state.needed_unit = unit;
      }
    }
  }
  // A recommendation never decides a level, even when its case crashed (Destroy(NULL), say).
  if (spec::ChecksShouldOnly(result.clauses)) {
    state.should_only.Add(result.status);
    return;
  }
  if (result.status == Status::kUnsupported && !result.optional_capability.empty()) {
    ++state.optional_missing;
    auto found = std::find_if(missing_.begin(), missing_.end(), [&](const MissingCapability &missing) {
      return missing.part == part && missing.capability == result.optional_capability;
    });
    if (found == missing_.end()) {
      missing_.push_back({part, result.optional_capability, 0, result.id});
      found = missing_.end() - 1;
    }
    ++found->cases;
  } else if (result.status == Status::kUnsupported && state.first_required_unsupported.empty()) {
    state.first_required_unsupported = result.id;
  }
  if (IsOptionalPart(part)) return;
  if (!IsAdvancedPart(part)) minimal_causes_.Add(result);
  all_causes_.Add(result);
}

LevelOutcome LevelTally::EvaluateLevel(bool advanced) const {
  LevelOutcome outcome;
  std::vector<std::string> &reasons = outcome.reasons;
  std::vector<std::string> required = kMinimalRuntimeParts;
  if (advanced) required.push_back("rt.event");
  for (const std::string &part : required) {
    if (parts_.count(part) == 0) reasons.push_back(part + " cases not run");
  }
  const bool any_operator = std::any_of(parts_.begin(), parts_.end(), [](const auto &entry) {
    return entry.first.rfind("op.", 0) == 0;
  });
  if (!any_operator) reasons.push_back("op suite not run");
  if (advanced && parts_.count("ccl") == 0) reasons.push_back("ccl suite not run");

  // What keeps a part from passing other than a failure: nothing passed, or unsupported calls
  // and expected failures, one line a part.
  for (const PartVerdict &part : Parts()) {
    if (part.level == "optional" || (!advanced && part.level == "advanced")) continue;
    if (part.counts[Status::kPass] == 0 && part.verdict == "untested") {
      reasons.push_back(part.part + ": all " + std::to_string(part.counts.total) + " cases skipped");
      continue;
    }
    const PartState &state = parts_.at(part.part);
    if (const int required = part.counts[Status::kUnsupported] - state.optional_missing -
                             state.should_only[Status::kUnsupported];
        required > 0) {
      reasons.push_back(part.part + ": " + std::to_string(required) + " unsupported (first: " +
                        state.first_required_unsupported + ")");
    }
    if (const int xfail = part.counts[Status::kXfail] - state.should_only[Status::kXfail]; xfail > 0) {
      reasons.push_back(part.part + ": " + std::to_string(xfail) + " xfail (first: " +
                        state.first_id.at(Status::kXfail) + ")");
    }
  }

  // Failures, one line per root cause, largest first.
  const std::vector<RootCauseGroup> groups = (advanced ? all_causes_ : minimal_causes_).Groups();
  for (size_t i = 0; i < groups.size() && i < kRootCausesShown; ++i) reasons.push_back(DescribeGroup(groups[i]));
  if (groups.size() > kRootCausesShown) {
    int cases = 0;
    for (size_t i = kRootCausesShown; i < groups.size(); ++i) cases += groups[i].count;
    reasons.push_back("and " + std::to_string(groups.size() - kRootCausesShown) + " more root causes (" +
                      std::to_string(cases) + " cases)");
  }
  outcome.reached = reasons.empty();
  return outcome;
}

LevelOutcomes LevelTally::Evaluate(const RunScope &scope) const {
  LevelOutcomes outcomes;
  if (!scope.conformance_modes) {
    for (LevelOutcome *outcome : {&outcomes.minimal, &outcomes.advanced}) {
      outcome->judged = false;
      outcome->reasons = {"the run had no conformance or accuracy cases"};
    }
    return outcomes;
  }
  std::vector<std::string> unjudged = scope.narrowed;
  if (!scope.complete) unjudged.push_back("the run did not finish: it is still running, or was killed or interrupted");
  outcomes.minimal = EvaluateLevel(false);
  outcomes.advanced = EvaluateLevel(true);
  for (LevelOutcome *outcome : {&outcomes.minimal, &outcomes.advanced}) {
    std::vector<std::string> why = unjudged;
    if (outcome == &outcomes.advanced && scope.minimal_only) why.push_back("--level minimal left out the advanced parts");
    if (why.empty()) continue;
    // What the run saw still follows: a failure in a narrowed run is still a failure.
    why.insert(why.end(), outcome->reasons.begin(), outcome->reasons.end());
    outcome->reasons = std::move(why);
    outcome->reached = false;
    outcome->judged = false;
  }
  return outcomes;
}

std::vector<PartVerdict> LevelTally::Parts() const {
  std::vector<PartVerdict> verdicts;
  for (const auto &[part, state] : parts_) {
    PartVerdict verdict;
    verdict.part = part;
    verdict.level = LevelOf(part);
    verdict.counts = state.counts;
    // What decides: the cases of MUST clauses (a SHOULD's case is reported in counts, never decisive).
    const auto deciding = [&state](Status status) { return state.counts[status] - state.should_only[status]; };
    bool failed = false;
    for (Status status : kAllStatuses) failed = failed || ((IsFailure(status) || status == Status::kXfail) && deciding(status) > 0);
    const StatusCounts &counts = state.counts;
    verdict.skipped_for_capacity = state.skipped_for_capacity;
    if (state.most_needed > 0) verdict.needs = std::to_string(state.most_needed) + " " + state.needed_unit;
    if (failed) verdict.verdict = "fail";
    else if (deciding(Status::kUnsupported) > state.optional_missing) verdict.verdict = "unsupported";
    else if (counts[Status::kPass] == 0) verdict.verdict = "untested";
    else if (2 * state.skipped_for_capacity > counts.total) verdict.verdict = "skipped";
    else verdict.verdict = "pass";
    verdicts.push_back(std::move(verdict));
  }
  std::stable_sort(verdicts.begin(), verdicts.end(),
                   [](const PartVerdict &a, const PartVerdict &b) { return PartRank(a.part) < PartRank(b.part); });
  return verdicts;
}

}  // namespace infinicts::report
