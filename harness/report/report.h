// The report of one run (CONTRACT.md "The report"): facts of the run plus every
// finished case. Each result is serialized once, when it is added, so that the
// report can be rewritten after every case of a run of thousands.
#pragma once

#include <string>
#include <vector>

#include "report/case_result.h"
#include "report/levels.h"
#include "report/run_facts.h"

namespace infinicts::report {

inline constexpr int kSchemaVersion = 1;

class Report {
 public:
  ToolInfo tool = ToolInfo::ThisBuild();
  HostInfo host;
  BackendInfo backend;
  RunInfo run;

  void Add(CaseResult result);

  const std::vector<CaseResult> &results() const { return results_; }
  const StatusCounts &counts() const { return counts_; }
  LevelOutcomes levels() const { return levels_.Evaluate(); }

  // The whole report: top-level keys one a line, one result a line.
  std::string Serialize() const;

 private:
  std::vector<CaseResult> results_;
  std::vector<std::string> result_texts_;
  size_t result_bytes_ = 0;
  StatusCounts counts_;
  LevelTally levels_;
};

}  // namespace infinicts::report
