// The journal of a run (docs/usage.md "The report"): beside the report, at
// "<report>.journal", one JSON line per finished case, appended as the case ends. The runner
// writes the whole report only now and then; a run killed in between (SIGKILL, a power cut of
// the shell) leaves every finished case in the journal, and `infinicts report`, `compare` and
// `merge` complete the report from it. A run that ends writes the whole report and removes it.
//   line 1   {"journal": 1, "started": "<run.started>"}: whose journal it is
//   then     {"result": {…}} a finished case (a later line for the same id amends it), or
//            {"failure": "…"} a failure outside every case (run.failures)
//            {"complete": true} the run ended with a verdict for every case, though its whole
//            report may not have been written (a lost MPI rank: mpirun kills rank 0 soon after)
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "report/case_result.h"

namespace infinicts::report {

// Beside the report's file, its symlinks followed.
std::string JournalPath(const std::string &report_path);

class JournalWriter {
 public:
  JournalWriter() = default;
  JournalWriter(const JournalWriter &) = delete;
  JournalWriter &operator=(const JournalWriter &) = delete;
  ~JournalWriter();

  // Starts the journal of the report at report_path afresh, for the run started at `started`.
  bool Open(const std::string &report_path, const std::string &started, std::string *error);
  // Each reaches the kernel before it returns: a killed runner loses none.
  bool AppendResult(const CaseResult &result);
  bool AppendFailure(const std::string &failure);
  // The run's last verdicts, its failures and its end, in one write: the fastest way to put
  // a run that is about to be killed on the disk whole.
  bool AppendEnd(const std::vector<CaseResult> &results, const std::vector<std::string> &failures);
  // The whole report now holds everything the journal did.
  void Remove();
  bool is_open() const { return fd_ >= 0; }
  size_t bytes_written() const { return bytes_written_; }

 private:
  static std::string LineOf(const nlohmann::ordered_json &line);
  bool AppendText(const std::string &text);
  bool AppendLine(const nlohmann::ordered_json &line);

  int fd_ = -1;
  std::string path_;
  size_t bytes_written_ = 0;
};

// What reading the journal did to a report.
struct JournalReplay {
  size_t added = 0;     // cases the report did not hold yet
  size_t failures = 0;  // run failures the report did not hold yet
  std::string note;     // one line for the user when the journal was read or set aside; else ""
};

// Completes *report, read from report_path, with what its journal holds beyond it, and
// computes its summary again. A journal of another run, or beside a report that says the run
// completed, is set aside (the note says why); a torn last line (the runner killed while
// writing it) is left out. False only when the completed report cannot be made.
bool ApplyJournal(const std::string &report_path, nlohmann::json *report, JournalReplay *replay, std::string *error);

}  // namespace infinicts::report
