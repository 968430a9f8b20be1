// The ETA of a run (docs/usage.md "What a run prints"): each case's expected duration, from
// the table measured on the CPU reference (runner/shard.h DurationModel), scaled by the pace
// this run keeps against it. The pace is taken per suite and mode: the table can be right
// about one (op accuracy) and far off about another (collectives on fewer cores), and a
// single pace would carry one's error into the other's estimate.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace infinicts::cli {

class EtaEstimate {
 public:
  // A case the run will run, and the milliseconds the table expects of it.
  void Expect(const std::string &id, double expected_ms);
  // A case ended, `wall_s` seconds of the run's wall time after the case before it ended
  // (after the start, for the first): its share of the run's time, startup costs included.
  void CaseEnded(const std::string &id, double wall_s);
  // Seconds left, once at least one case has ended; nullopt before, or when nothing is left.
  std::optional<double> RemainingSeconds() const;

 private:
  struct Group {
    double expected_total_ms = 0;
    double expected_done_ms = 0;
    double wall_s = 0;
    int cases = 0;
    int done = 0;
  };
  // "op.accuracy" of "op.gemm.accuracy/…".
  static std::string GroupOf(const std::string &id);

  std::map<std::string, double> expected_ms_;
  std::map<std::string, Group> groups_;
};

}  // namespace infinicts::cli
