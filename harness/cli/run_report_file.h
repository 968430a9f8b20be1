// The report of a run while it is written (docs/usage.md "The report"): the whole report at
// the start and at the end, and now and then in between; each finished case in the journal
// beside it as the case ends (report/journal.h). A report sent to standard output, a device
// or a FIFO is written once, at the end, and has no journal.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "report/journal.h"
#include "report/report.h"

namespace infinicts::cli {

class RunReportFile {
 public:
  RunReportFile(std::string path, report::Report *report);

  // Writes the report as it is (no case yet) and starts the journal.
  bool Start(std::string *error);
  // After the report took a case's result (added or amended).
  void CaseEnded(const report::CaseResult &result);
  // After the report took a failure outside every case.
  void RunFailed(const std::string &failure);
  // The whole report, on the disk before it returns; the journal goes.
  bool Finish(std::string *error);
  // A run about to be killed (a lost MPI rank: mpirun ends every process within about a
  // second): the report already took `results` and `failures`, and is complete. They go to the
  // journal first, in one write, marked as the end, so that a reader has every verdict even
  // when the whole report that follows is cut short.
  bool FinishBeforeKill(const std::vector<report::CaseResult> &results, const std::vector<std::string> &failures,
                        std::string *error);

  const std::string &path() const { return path_; }
  size_t bytes_written() const { return bytes_written_ + journal_.bytes_written(); }

 private:
  bool WriteWhole(bool durable, std::string *error);
  void RewriteWhenDue();
  void Warn(const std::string &error);

  std::string path_;
  report::Report *report_;
  bool in_place_;
  report::JournalWriter journal_;
  std::chrono::steady_clock::time_point last_write_;
  size_t results_at_last_write_ = 0;
  size_t bytes_written_ = 0;
  bool warned_ = false;
};

}  // namespace infinicts::cli
