#include "cli/eta.h"

namespace infinicts::cli {
namespace {

// A group's own pace counts once this many of its cases ended and they were expected to take
// this share of it: before that, a suite's first cases (its process starting, its first
// allocations) would set the pace of all the rest.
constexpr int kSettledCases = 10;
constexpr double kSettledShare = 0.02;

}  // namespace

std::string EtaEstimate::GroupOf(const std::string &id) {
  const std::string test = id.substr(0, id.find('/'));
  const size_t first_dot = test.find('.');
  const size_t last_dot = test.rfind('.');
  if (first_dot == std::string::npos) return test;
  return test.substr(0, first_dot) + test.substr(last_dot);
}

void EtaEstimate::Expect(const std::string &id, double expected_ms) {
  if (expected_ms < 0) expected_ms = 0;
  expected_ms_[id] = expected_ms;
  Group &group = groups_[GroupOf(id)];
  group.expected_total_ms += expected_ms;
  ++group.cases;
}

void EtaEstimate::CaseEnded(const std::string &id, double wall_s) {
  Group &group = groups_[GroupOf(id)];
  if (const auto found = expected_ms_.find(id); found != expected_ms_.end()) {
    group.expected_done_ms += found->second;
    expected_ms_.erase(found);  // a case amended later counts once
    ++group.done;
  }
  group.wall_s += wall_s > 0 ? wall_s : 0;
}

std::optional<double> EtaEstimate::RemainingSeconds() const {
  double wall_s = 0;
  double expected_done_ms = 0;
  int done = 0;
  int cases = 0;
  for (const auto &[name, group] : groups_) {
    wall_s += group.wall_s;
    expected_done_ms += group.expected_done_ms;
    done += group.done;
    cases += group.cases;
  }
  if (done == 0 || done >= cases) return std::nullopt;
  // Without expectations (a table without these cases), cases are taken as alike.
  const double overall_pace = expected_done_ms > 0 ? wall_s * 1000.0 / expected_done_ms : 0;
  const double seconds_per_case = wall_s / done;
  double remaining_s = 0;
  for (const auto &[name, group] : groups_) {
    const int left = group.cases - group.done;
    if (left <= 0) continue;
    const double expected_left_ms = group.expected_total_ms - group.expected_done_ms;
    const bool settled = group.done >= kSettledCases && group.expected_done_ms > 0 &&
                         group.expected_done_ms >= kSettledShare * group.expected_total_ms;
    if (settled) {
      remaining_s += expected_left_ms / 1000.0 * (group.wall_s * 1000.0 / group.expected_done_ms);
    } else if (overall_pace > 0 && expected_left_ms > 0) {
      remaining_s += expected_left_ms / 1000.0 * overall_pace;
    } else {
      remaining_s += left * seconds_per_case;
    }
  }
  return remaining_s;
}

}  // namespace infinicts::cli
