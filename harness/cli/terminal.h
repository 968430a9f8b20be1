// What a run prints while it goes: on a terminal one progress line redrawn in
// place (done/total, failures so far, elapsed, ETA, the case in flight); and, on a
// terminal or not, one line per failing case. At the end, the summary table.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "cts/case_list.h"
#include "report/first_line.h"
#include "report/report.h"

namespace infinicts::cli {

class RunDisplay {
 public:
  RunDisplay(int total, bool quiet);
  void OnResult(const report::CaseResult &result);
  void OnTick(const cts::ListedCase *running);
  void OnRunFailure(const std::string &message);  // a failure outside every case, printed whole
  void Finish();  // takes the progress line away

 private:
  void Redraw(bool force);
  void ClearLine();

  int total_;
  int done_ = 0;
  int failures_ = 0;
  bool progress_;
  std::string running_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

// Counts per suite and mode, the levels and where the report went.
void PrintSummary(std::FILE *out, const report::Report &report, const std::string &report_path);

using report::FirstLine;  // for one-line output

}  // namespace infinicts::cli
