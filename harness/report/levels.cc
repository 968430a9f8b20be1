#include "report/levels.h"

namespace infinicts::report {
namespace {

// A part is a whole suite ("op") or one subject of the rt suite ("rt.memory").
const std::vector<std::string> kMinimalParts = {"rt.device", "rt.stream", "rt.memory", "rt.guard", "op"};
const std::vector<std::string> kAdvancedOnlyParts = {"rt.event", "ccl"};

std::string PartOf(const std::string &suite, const std::string &subject) {
  return suite == "rt" ? suite + "." + subject : suite;
}

std::string DescribePart(const std::string &part) {
  return part.find('.') == std::string::npos ? part + " suite" : part + " cases";
}

}  // namespace

bool IsAdvancedOnly(const std::string &suite, const std::string &subject) {
  const std::string part = PartOf(suite, subject);
  for (const std::string &advanced : kAdvancedOnlyParts) {
    if (part == advanced) return true;
  }
  return false;
}

void LevelTally::Add(const CaseResult &result) {
  // Levels judge conformance; how fast a backend is never decides whether it conforms.
  if (result.mode == "perf") return;
  PartState &state = parts_[PartOf(result.suite, result.subject)];
  state.counts.Add(result.status);
  if (BlocksLevel(result.status) && state.first_blocking_id.empty()) state.first_blocking_id = result.id;
}

LevelOutcome LevelTally::EvaluateParts(const std::vector<std::string> &parts) const {
  LevelOutcome outcome;
  for (const std::string &part : parts) {
    auto found = parts_.find(part);
    if (found == parts_.end()) {
      outcome.reasons.push_back(DescribePart(part) + " not run");
      continue;
    }
    const PartState &state = found->second;
    std::string blocking;
    for (Status status : kAllStatuses) {
      if (!BlocksLevel(status) || state.counts[status] == 0) continue;
      if (!blocking.empty()) blocking += ", ";
      blocking += std::to_string(state.counts[status]) + " " + StatusName(status);
    }
    if (!blocking.empty()) {
      outcome.reasons.push_back(part + ": " + blocking + " (first: " + state.first_blocking_id + ")");
    } else if (state.counts[Status::kPass] == 0) {
      outcome.reasons.push_back(part + ": all " + std::to_string(state.counts.total) + " cases skipped");
    }
  }
  outcome.reached = outcome.reasons.empty();
  return outcome;
}

LevelOutcomes LevelTally::Evaluate() const {
  LevelOutcomes outcomes;
  outcomes.minimal = EvaluateParts(kMinimalParts);
  std::vector<std::string> advanced = kMinimalParts;
  advanced.insert(advanced.end(), kAdvancedOnlyParts.begin(), kAdvancedOnlyParts.end());
  outcomes.advanced = EvaluateParts(advanced);
  return outcomes;
}

}  // namespace infinicts::report
