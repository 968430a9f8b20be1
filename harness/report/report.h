// The report of one run (docs/usage.md "The report"): facts of the run plus every
// finished case. Each result is serialized once, when it is added, so that writing the
// report again while a run of thousands goes on costs only the copying.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "report/case_result.h"
#include "report/levels.h"
#include "report/roofline.h"
#include "report/run_facts.h"

namespace infinicts::report {

inline constexpr int kSchemaVersion = 2;

// What an --expect file did to the run (report.expectations).
struct ExpectationsOutcome {
  struct Flaky {
    std::string id;
    int attempts = 1;  // runs of the case, the first included
    Status status = Status::kFail;  // the last attempt's
  };
  std::string file;
  std::vector<std::string> xfail;            // failed as the file expected
  std::vector<std::string> unexpected_pass;  // listed as xfail, passed
  std::vector<Flaky> flaky;                  // listed as flaky and failed at first
  std::vector<std::string> skipped;          // not run: listed as skip
};

class Report {
 public:
  ToolInfo tool = ToolInfo::ThisBuild();
  HostInfo host;
  BackendInfo backend;
  RunInfo run;
  std::optional<Roofline> roofline;                // perf runs
  std::optional<ExpectationsOutcome> expectations;  // runs given --expect

  void Add(CaseResult result);
  // Replaces the result of the same id (a crash charged to a case after it ended); false, and
  // nothing changed, when there is none.
  bool Replace(CaseResult result);
  // Adds (or replaces) metrics of the result at index and re-serializes it.
  void MergeMetrics(size_t index, const nlohmann::json &metrics);
  // Sets the roofline and, on every result it applies to, the roof metrics against its
  // measured and spec-sheet peaks (report/roofline.h).
  void SetRoofline(Roofline roofline);

  const std::vector<CaseResult> &results() const { return results_; }
  const StatusCounts &counts() const { return counts_; }
  // Of counts()[kCrash], the crashes in probes of invalid input.
  int crashes_on_invalid_input() const { return crashes_on_invalid_input_; }
  // Judged on this run's scope (run.complete, run.narrowed, run.modes).
  LevelOutcomes levels() const;
  std::vector<PartVerdict> parts() const { return levels_.Parts(); }
  std::vector<RootCauseGroup> root_causes() const { return root_causes_.Groups(); }

  // The whole report: top-level keys one a line, one result a line.
  std::string Serialize() const;

 private:
  void Tally(const CaseResult &result);

  std::vector<CaseResult> results_;
  std::unordered_map<std::string, size_t> index_by_id_;
  std::vector<std::string> result_texts_;
  size_t result_bytes_ = 0;
  StatusCounts counts_;
  int crashes_on_invalid_input_ = 0;
  LevelTally levels_;
  RootCauses root_causes_;
};

}  // namespace infinicts::report
