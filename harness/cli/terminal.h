// What a run prints while it goes: on a terminal one progress line redrawn in place
// (done/total, failures so far, elapsed, ETA, the case in flight), piped a heartbeat line every
// 30 s; on a terminal or not, each failing case with its rerun line, and each perf case's
// figures as nccl-tests prints them. At the end, the summary table.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "cli/eta.h"
#include "cts/case_list.h"
#include "report/first_line.h"
#include "report/report.h"

namespace infinicts::cli {

class RunDisplay {
 public:
  RunDisplay(int total, bool quiet);
  // The expected duration of each case still to run, by id (cli/eta.h).
  void ExpectDurations(std::map<std::string, double> expected_ms);
  void OnResult(const report::CaseResult &result);
  void OnTick(const cts::ListedCase *running);
  void OnRunFailure(const std::string &message);  // a failure outside every case, printed whole
  void Finish();  // takes the progress line away

 private:
  void Redraw(bool force);
  void Heartbeat(bool force);
  void ClearLine();
  std::string ProgressText() const;

  int total_;
  int done_ = 0;
  int failures_ = 0;
  bool progress_;
  bool heartbeat_;
  bool perf_header_shown_ = false;
  EtaEstimate eta_;
  std::string running_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_result_;
  std::chrono::steady_clock::time_point last_draw_;
  std::chrono::steady_clock::time_point last_heartbeat_;
  bool drawn_ = false;
};

// What the run is about to do: the backend's libraries (and those it lacks), the devices, the
// suites and modes, the number of cases and where the report goes.
void PrintRunHeader(std::FILE *out, const report::Report &report, size_t cases, const std::string &report_path);

// Counts per suite and mode, the levels and where the report went.
void PrintSummary(std::FILE *out, const report::Report &report, const std::string &report_path);

using report::FirstLine;  // for one-line output

}  // namespace infinicts::cli
