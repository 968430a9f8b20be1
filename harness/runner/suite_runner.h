// Runs the selected cases of one suite binary in child processes and turns what
// happens into one result per case:
//   - the child reports {"event":"start"} / {"event":"end",status,…} per case on fd 3;
//   - a child that dies with a case in flight ends that case `crash` (signal or exit
//     code, and the tail of its stderr);
//   - a case that runs past the time limit is killed with its process group and
//     ends `timeout`;
//   - after either, or when a child exits leaving cases it never started, a new
//     child runs the cases left; a child that resolves no case at all ends the
//     rest `crash` (or `timeout` when it hung) with the reason, so nothing loops;
//   - a child that exits with an error or a signal with no case in flight (a backend
//     crashing as it unloads, a sanitizer's report at exit) is a run failure.
// A crashed case's message carries that case's own output, and the backend call in flight
// where the child's crash handler (cts/call_tracing.h) named it.
// Under mpirun (spec.rank_link, runner/rank_link.h) the child runs one rank's part of each
// case: the runner passes rank 0's shared bytes on to it, and stops a part whose peer failed.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cts/case_list.h"
#include "report/case_result.h"

namespace infinicts::runner {

struct SuiteRunSpec {
  std::string binary;
  std::string suite;                  // rt, op, ccl: for messages
  std::vector<std::string> backends;  // each goes to the child as --cts-backend
  std::string device;                 // device type name
  std::string device_ids;             // "0,1", or empty for the child's default
  double timeout_s = 60;              // per case
  // Under mpirun: this rank's link to the others; the child runs this rank's part of each case.
  class RankLink *rank_link = nullptr;
};

class SuiteRunner {
 public:
  using ResultSink = std::function<void(report::CaseResult)>;
  // Called every few tens of milliseconds while a child runs, with the case in flight (or null).
  using Tick = std::function<void(const cts::ListedCase *running)>;

  SuiteRunner(SuiteRunSpec spec, std::vector<cts::ListedCase> cases);

  // Runs every case, those of valid input first, then the probes of invalid input (in a child of
  // their own, so that a backend crashing on a NULL argument never costs a functional case its
  // process); on_result gets each result as its case ends. A case that crashes after another in
  // its process runs again alone first: where it then passes, or fails otherwise, that result is
  // its own and the crash is charged to the case before it, whose result on_result then gets a
  // second time, amended. Returns false
  // when the run was interrupted (runner::Interrupted()); the cases left have no result.
  bool Run(const ResultSink &on_result, const Tick &on_tick);
  // What went wrong outside every case: a child that exited with an error or a signal between
  // cases or after its last one, with its stderr. Each is a failure of the run.
  const std::vector<std::string> &run_failures() const { return run_failures_; }

 private:
  struct Attempt;
  bool RunAttempt(const ResultSink &on_result, const Tick &on_tick);
  // The case at `index` in a process of its own (a crash's second opinion).
  report::CaseResult RunAlone(size_t index, const Tick &on_tick) const;
  void Resolve(size_t index, report::CaseResult result, const ResultSink &on_result);
  report::CaseResult ResultFor(size_t index, report::Status status, std::string message, double duration_ms) const;
  std::vector<size_t> Pending() const;  // of the phase running now
  std::vector<std::string> ChildArguments(const std::string &cases_file) const;

  SuiteRunSpec spec_;
  std::vector<cts::ListedCase> cases_;
  std::vector<bool> resolved_;
  bool invalid_input_phase_ = false;
  std::map<std::string, size_t> index_by_test_;
  std::vector<std::string> run_failures_;
};

}  // namespace infinicts::runner
