#include "runner/rank_verdict.h"

#include <optional>
#include <string>

#include "cts/rank_spread.h"

namespace infinicts::runner {
namespace {

using report::CaseResult;
using report::Status;

// Higher is worse.
int Severity(Status status) {
  switch (status) {
    case Status::kPass: return 0;
    case Status::kXfail: return 1;
    case Status::kSkip: return 2;
    case Status::kUnsupported: return 3;
    case Status::kBlocked: return 4;
    case Status::kFail: return 5;
    case Status::kTimeout: return 6;
    case Status::kCrash: return 7;
  }
  return 7;
}

bool StartsWith(const std::string &text, const char *prefix) { return text.rfind(prefix, 0) == 0; }

bool IsOutside(const CaseResult &part) {
  return part.status == Status::kSkip && StartsWith(part.message, cts::kOutsideGroupPrefix);
}
bool IsStopped(const CaseResult &part) { return StartsWith(part.message, kStoppedForPeerPrefix); }

std::string FirstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

std::string RankList(const std::vector<int> &ranks) {
  std::string text;
  for (int rank : ranks) text += (text.empty() ? "" : ", ") + std::to_string(rank);
  return text;
}

std::optional<double> NumberMetric(const CaseResult &part, const char *name) {
  if (!part.metrics.is_object() || !part.metrics.contains(name)) return std::nullopt;
  const auto &value = part.metrics[name];
  if (!value.is_number()) return std::nullopt;
  return value.get<double>();
}

std::optional<double> MedianOf(const CaseResult &part) { return NumberMetric(part, "time_ms_median"); }

// CCL-NUM-4 across processes: the members' bit digests, compared with the first member's. A
// member that did not record one (it failed before reading back) is not counted. Clears the
// digests from the combined metrics and records ranks_disagreeing; answers the ranks that
// disagree where agreement is required, and none otherwise.
std::vector<int> CompareBitsDigests(const std::vector<CaseResult> &parts, const std::vector<int> &members,
                                    CaseResult &combined) {
  std::optional<double> reference;
  bool must_agree = false;
  std::vector<int> disagreeing;
  for (int r : members) {
    const std::optional<double> digest = NumberMetric(parts[r], cts::kBitsDigestMetric);
    if (!digest) continue;
    must_agree = must_agree || NumberMetric(parts[r], cts::kBitsMustAgreeMetric).value_or(0) != 0;
    if (!reference) reference = digest;
    else if (*digest != *reference) disagreeing.push_back(r);
  }
  if (!reference) return {};
  combined.metrics.erase(cts::kBitsDigestMetric);
  combined.metrics.erase(cts::kBitsMustAgreeMetric);
  combined.metrics["ranks_disagreeing"] = static_cast<double>(disagreeing.size());
  return must_agree ? disagreeing : std::vector<int>{};
}

}  // namespace

bool StopsPeers(const CaseResult &part) {
  return part.status != Status::kPass && part.status != Status::kXfail && !IsOutside(part) && !IsStopped(part);
}

CaseResult CombineRankParts(const std::vector<CaseResult> &parts) {
  const int ranks = static_cast<int>(parts.size());
  std::vector<int> members, stopped;
  for (int r = 0; r < ranks; ++r) {
    if (IsOutside(parts[r])) continue;
    (IsStopped(parts[r]) ? stopped : members).push_back(r);
  }
  // Every rank stood outside or was stopped: rank 0's part says why.
  if (members.empty()) members.push_back(stopped.empty() ? 0 : stopped.front());

  int worst = members.front();
  for (int r : members) {
    if (Severity(parts[r].status) > Severity(parts[worst].status)) worst = r;
  }
  CaseResult combined = parts[worst];
  // Perf: the slowest rank's figures; elsewhere the first member's metrics stand.
  int slowest = -1;
  for (int r : members) {
    const std::optional<double> median = MedianOf(parts[r]);
    if (median && (slowest < 0 || *median > *MedianOf(parts[slowest]))) slowest = r;
  }
  const int figures = slowest >= 0 ? slowest : members.front();
  combined.metrics = parts[figures].metrics;
  combined.timing = parts[figures].timing;
  if (!combined.metrics.is_object()) combined.metrics = nlohmann::json::object();
  if (slowest >= 0) combined.metrics["slowest_rank"] = static_cast<double>(slowest);
  for (int r : members) {
    if (combined.optional_capability.empty()) combined.optional_capability = parts[r].optional_capability;
  }
  combined.duration_ms = 0;
  for (const CaseResult &part : parts) combined.duration_ms = std::max(combined.duration_ms, part.duration_ms);
  const std::vector<int> disagreeing = CompareBitsDigests(parts, members, combined);
  if (!disagreeing.empty() && Severity(combined.status) < Severity(Status::kFail)) {
    combined.status = Status::kFail;
    combined.message = std::string(disagreeing.size() == 1 ? "rank " : "ranks ") + RankList(disagreeing) +
                       " received other bits than rank " + std::to_string(members.front()) +
                       ", though every rank must receive the same bits here";
    return combined;
  }

  // A pass, or a skip every member agrees on (the case cannot apply here), needs no rank named.
  if (Severity(combined.status) <= Severity(Status::kSkip)) return combined;
  std::string ranks_line;
  for (int r : members) {
    if (parts[r].status == Status::kPass) continue;
    ranks_line += ranks_line.empty() ? "" : "; ";
    ranks_line += "rank " + std::to_string(r) + " " + report::StatusName(parts[r].status);
    if (r != worst && !parts[r].message.empty()) ranks_line += " (" + FirstLine(parts[r].message) + ")";
  }
  if (!stopped.empty()) {
    ranks_line += (ranks_line.empty() ? "" : "; ") + std::string(stopped.size() == 1 ? "rank " : "ranks ") +
                  RankList(stopped) + " stopped when rank " + std::to_string(worst) + "'s part ended";
  }
  if (ranks > 1 && !ranks_line.empty()) {
    combined.message += (combined.message.empty() ? "" : "\n") + std::string("[ranks of ") + std::to_string(ranks) +
                        "] " + ranks_line;
  }
  return combined;
}

}  // namespace infinicts::runner
