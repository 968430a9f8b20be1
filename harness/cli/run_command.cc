// `infinicts run`: probe the backend, select the cases, run them suite by suite in
// child processes (applying an --expect file: skips, flaky reruns, known failures),
// journal every case and write the whole report now and then (cli/run_report_file.h), add the
// roofline of a perf run, print the summary.
#include <unistd.h>

#include <csignal>
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "backend/names.h"
#include "cli/case_selection.h"
#include "cli/checked_values.h"
#include "cli/run_across_ranks.h"
#include "cli/commands.h"
#include "cli/outputs.h"
#include "cli/run_report_file.h"
#include "cli/side_by_side.h"
#include "cli/terminal.h"
#include "report/output_file.h"
#include "report/report.h"
#include "runner/case_listing.h"
#include "runner/expectations.h"
#include "runner/interrupt.h"
#include "runner/probe.h"
#include "runner/rank_link.h"
#include "runner/repeated_passes.h"
#include "runner/rerun_command.h"
#include "runner/roofline_pass.h"
#include "runner/shard.h"
#include "runner/suite_binaries.h"
#include "runner/suite_runner.h"

namespace infinicts::cli {
namespace {

constexpr double kMinimumProbeSeconds = 60;  // loading a real driver stack can take a while
constexpr int kFlakyAttempts = 3;            // a flaky case that fails runs up to twice more
// Under mpirun, how long past a case's time limit rank 0 waits for a rank's last parts.
constexpr double kLostRankGraceSeconds = 60;

using report::CaseResult;
using report::Status;

// Where the report goes. A report sent to standard output takes the command's stdout for
// itself: what the run prints goes to stderr instead, so the JSON stays whole.
std::string ReportPath(const RunOptions &options, const std::string &device_name) {
  if (options.out.empty()) return DefaultReportPath("", device_name);
  if (options.out != "-" && options.out != "/dev/stdout") return options.out;
  std::fflush(stdout);
  const int report_fd = dup(STDOUT_FILENO);
  if (report_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return options.out;
  return "/dev/fd/" + std::to_string(report_fd);
}

// "0,1" -> {0, 1}; false for anything but non-negative integers.
bool ParseDeviceIds(const std::string &text, std::vector<int> *ids) {
  std::istringstream parts(text);
  std::string part;
  while (std::getline(parts, part, ',')) {
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) return false;
    ids->push_back(std::stoi(part));
  }
  return !ids->empty();
}

// 100 -> "100", 2.5 -> "2.5": a number as the user would have typed it.
std::string NumberText(double value) {
  std::ostringstream text;
  text.precision(12);
  text << value;
  return text.str();
}

// Runs a flaky case that failed again, alone in a fresh child each time, until it stops
// failing or has run kFlakyAttempts times; *result becomes the last attempt's and its
// message says what each attempt did. Returns false when the run was interrupted.
bool RerunFlaky(const runner::SuiteRunSpec &spec, const cts::ListedCase &listed, const std::string &where,
                const runner::SuiteRunner::Tick &on_tick, CaseResult *result, int *attempts) {
  std::string history = "attempt 1 " + std::string(report::StatusName(result->status)) + " (" +
                        FirstLine(result->message) + ")";
  *attempts = 1;
  bool interrupted = false;
  while (*attempts < kFlakyAttempts && report::IsFailure(result->status)) {
    runner::SuiteRunner single(spec, {listed});
    std::optional<CaseResult> attempt;
    if (!single.Run([&](CaseResult got) { attempt = std::move(got); }, on_tick)) interrupted = true;
    if (!attempt) break;
    *result = std::move(*attempt);
    ++*attempts;
    history += ", attempt " + std::to_string(*attempts) + " " + report::StatusName(result->status);
    if (report::IsFailure(result->status)) history += " (" + FirstLine(result->message) + ")";
    if (interrupted) break;
  }
  const std::string note = "listed as flaky in " + where + ": " + history;
  result->message = result->message.empty() ? note : note + "\n" + result->message;
  return !interrupted;
}

std::string Joined(const std::vector<std::string> &words) {
  std::string text;
  for (const std::string &word : words) text += (text.empty() ? "" : ",") + word;
  return text;
}

// What keeps this run from judging the levels: every part of a level must have run whole.
// A suite not run because the backend lacks its library is no narrowing: the levels that need
// it are judged, and not reached.
std::vector<std::string> Narrowings(const RunOptions &options, const std::vector<SuiteCases> &suites,
                                    const std::vector<std::string> &modes,
                                    const std::vector<std::string> &missing_libraries) {
  std::vector<std::string> narrowed;
  std::vector<std::string> left_out;
  const bool minimal_only = options.level == std::optional<std::string>("minimal");
  for (const std::string &suite : runner::KnownSuites()) {
    if (minimal_only && suite == "ccl") continue;  // the collectives are advanced only
    if (std::find(missing_libraries.begin(), missing_libraries.end(), "libinfini" + suite + ".so") !=
        missing_libraries.end())
      continue;
    if (std::none_of(suites.begin(), suites.end(), [&](const SuiteCases &cases) { return cases.suite == suite; }))
      left_out.push_back(suite);
  }
  if (!left_out.empty()) narrowed.push_back("the run left out the " + Joined(left_out) + " suite(s)");
  std::vector<std::string> modes_left_out;
  for (const char *mode : {"conformance", "accuracy"}) {
    if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes_left_out.push_back(mode);
  }
  if (!modes_left_out.empty()) narrowed.push_back("--mode left out the " + Joined(modes_left_out) + " cases");
  if (options.problems.Given()) narrowed.push_back("the run took the problems of --problem/--cases, not the suite's");
  if (options.sweep.Given()) narrowed.push_back("the run took the sizes of --coll's sweep, not the suite's");
  size_t selected = 0, unfiltered = 0;
  for (const SuiteCases &suite : suites) {
    selected += suite.cases.size();
    unfiltered += suite.unfiltered;
  }
  if (selected < unfiltered) {
    narrowed.push_back("--filter " + Joined(options.filters) + " selected " + std::to_string(selected) + " of " +
                       std::to_string(unfiltered) + " cases");
  }
  return narrowed;
}

// Keeps in `suites` only the cases of `shard`, says what the shard holds of the selection,
// and fills `place` with each case's place in the whole selection.
report::ShardInfo TakeShard(const runner::ShardSpec &shard, std::vector<SuiteCases> *suites,
                            std::map<std::string, size_t> *place) {
  std::vector<const cts::ListedCase *> selected;
  std::vector<std::string> ids;
  for (const SuiteCases &suite : *suites) {
    for (const cts::ListedCase &listed : suite.cases) {
      place->emplace(listed.id, selected.size());
      selected.push_back(&listed);
      ids.push_back(listed.id);
    }
  }
  const std::vector<int> shard_of = runner::AssignShards(selected, shard.count, runner::DurationModel::BuiltIn());
  report::ShardInfo info;
  info.index = shard.index;
  info.count = shard.count;
  info.selected = selected.size();
  info.selection = report::SelectionDigest(std::move(ids));
  size_t next = 0;
  for (SuiteCases &suite : *suites) {
    std::vector<cts::ListedCase> kept;
    for (cts::ListedCase &listed : suite.cases) {
      if (shard_of[next++] == shard.index) kept.push_back(std::move(listed));
    }
    info.cases += kept.size();
    suite.cases = std::move(kept);
  }
  return info;
}

// The whole run, or under mpirun rank 0's part of it (with `link`), which writes the report.
int RunAloneOrAsRankZero(const RunOptions &options, runner::RankLink *link) {
  std::string error;
  const auto device_type = ParseDeviceType(options.device);
  if (!device_type) {
    return UsageError("unknown device '" + options.device + "'; expected cpu, nvidia, another device type name "
                      "or its number");
  }
  const std::string device_name = DeviceTypeName(*device_type);
  std::vector<int> requested_ids;
  if (!options.device_ids.empty() && !ParseDeviceIds(options.device_ids, &requested_ids)) {
    return UsageError("--device-ids wants device numbers separated by commas (0,1), not '" + options.device_ids + "'");
  }

  if (!options.out.empty() && !options.expect_file.empty()) {
    if (!report::InputOverwrittenBy(options.out, {options.expect_file}).empty()) {
      return UsageError("--out " + options.out + " is the --expect file: writing the report would destroy it");
    }
  }
  // A malformed expectations file stops the run before anything starts.
  std::optional<runner::Expectations> expectations;
  if (!options.expect_file.empty()) {
    runner::Expectations loaded;
    if (!runner::Expectations::Load(options.expect_file, &loaded, &error)) return UsageError(error);
    expectations = std::move(loaded);
  }

  // A sweep names its suite, its mode and its collectives.
  std::vector<std::string> asked_suites = options.suites, asked_modes = options.modes, swept_subjects;
  if (options.sweep.Given()) {
    if (options.problems.Given()) return UsageError("--coll sweeps collectives, --problem/--cases run operators: one or the other");
    if (!ApplyCollectiveSweep(options.sweep, &asked_suites, &asked_modes, &swept_subjects, &error)) {
      return UsageError(error);
    }
  }
  const std::vector<std::string> modes = ModesOrDefault(asked_modes);
  const bool conformance_modes =
      std::any_of(modes.begin(), modes.end(), [](const std::string &mode) { return mode != "perf"; });
  if (options.level && !conformance_modes) {
    return UsageError("--level judges conformance, and --mode " + Joined(modes) +
                      " runs no conformance or accuracy case; leave out --level or add a mode");
  }

  if (options.repeat > 1) {
    if (std::find(modes.begin(), modes.end(), "perf") == modes.end()) {
      return UsageError("--repeat runs the perf cases again, and --mode " + Joined(modes) +
                        " runs none; add --mode perf or leave out --repeat");
    }
    if (link) return UsageError("--repeat is not available under mpirun yet: run the perf cases without it");
  }

  std::optional<runner::ShardSpec> shard;
  if (!options.shard.empty()) {
    runner::ShardSpec parsed;
    if (!runner::ParseShard(options.shard, &parsed, &error)) return UsageError(error);
    shard = parsed;
  }

  if (const std::string bad = BadReferenceEnvironment(); !bad.empty()) return UsageError(bad);
  runner::BackendProbe probe;
  if (!runner::ProbeBackend(options.backends, std::max(options.timeout_s, kMinimumProbeSeconds), &probe, &error)) {
    return UsageError(error);
  }
  runner::Selection selection;
  selection.modes = modes;
  selection.filter = runner::CaseFilter(options.filters);
  selection.level = options.level;
  std::vector<std::string> suite_names, missing_libraries;
  // From the first file of its own on, an interrupted run winds down and removes its files
  // (runner/interrupt.h) instead of dying where it stands.
  runner::InstallInterruptHandlers();
  ProblemLinesFile problem_lines;
  if (options.problems.Given() && !problem_lines.Open(options.problems, &asked_suites, &error)) {
    return UsageError(error);
  }
  if (!SuitesToRun(asked_suites, probe.exported, probe.libraries, &suite_names, &missing_libraries, &error)) {
    return UsageError(error);
  }
  selection.subjects = options.sweep.Given() ? swept_subjects : problem_lines.subjects();
  std::vector<SuiteCases> suites;
  if (!CollectCases(suite_names, selection, &suites, &error)) return UsageError(error);
  // What narrows the whole selection, before a shard takes its part of it.
  std::vector<std::string> narrowed = Narrowings(options, suites, modes, missing_libraries);
  if (options.side == RunOptions::Side::kOther) {
    for (SuiteCases &suite : suites) {
      suite.cases.erase(std::remove_if(suite.cases.begin(), suite.cases.end(),
                                       [](const cts::ListedCase &listed) { return !HasTwoSides(listed); }),
                        suite.cases.end());
    }
    narrowed.push_back("the other side of a run side by side (--against): only its cases with two sides");
  }
  if (link) {
    if (!RanksAllow(options, &error) || !KeepCasesAcrossRanks(options, &suites, &narrowed, &error)) {
      return UsageError(error);
    }
  }
  size_t total = 0;
  for (const SuiteCases &suite : suites) total += suite.cases.size();
  if (total == 0) return UsageError("no case matches the selected suites, modes, level and filter");
  std::optional<report::ShardInfo> shard_info;
  std::map<std::string, size_t> selection_index;  // shards: each case's place in the whole selection
  if (shard) {
    shard_info = TakeShard(*shard, &suites, &selection_index);
    total = shard_info->cases;
    narrowed.push_back(report::ShardNarrowing(*shard_info));
  }

  const int device_count = probe.device_counts.at(*device_type);
  // A gate must never pass with its accelerator missing: only a run that says so may go on.
  if (device_count == 0 && !options.allow_no_device) {
    return UsageError("the backend has no " + device_name + " device (" + Joined(probe.libraries) +
                      "); --allow-no-device runs anyway, every case ending skip");
  }
  for (int id : requested_ids) {
    if (device_count > 0 && id >= device_count) {
      return UsageError("--device-ids names device " + std::to_string(id) + " but the backend has " +
                        std::to_string(device_count) + " " + device_name + " device(s)");
    }
  }

  if (link && device_count == 0) {
    return UsageError("under mpirun every rank needs a " + device_name + " device, and the backend has none");
  }
  // Under mpirun each rank's suite process drives one device (docs/scale-out.md).
  const std::string child_device_ids =
      link ? std::to_string(RankDevice(requested_ids, device_count, link->layout().local_rank)) : options.device_ids;

  report::Report report;
  report.host = report::HostInfo::ThisMachine();
  report.backend.libraries = probe.libraries;
  report.backend.device_type = device_name;
  report.backend.device_count = device_count;
  report.backend.exported = probe.exported;
  report.backend.missing = probe.missing;
  report.backend.missing_libraries = missing_libraries;
  if (!requested_ids.empty()) {
    report.backend.device_ids = requested_ids;
  } else {
    for (int id = 0; id < device_count; ++id) report.backend.device_ids.push_back(id);
  }
  report.run.started = report::IsoTimeNowUtc();
  report.run.argv = options.argv;
  for (const SuiteCases &suite : suites) report.run.suites.push_back(suite.suite);
  report.run.modes = selection.modes;
  report.run.narrowed = std::move(narrowed);
  report.run.shard = shard_info;
  report.run.level = options.level;
  report.run.against = options.other_side;
  if (link) {
    const runner::RankLayout &layout = link->layout();
    report.run.ranks = report::RanksInfo{layout.ranks, layout.nodes, layout.ranks_per_node};
  }
  if (device_count == 0) report.run.narrowed.push_back("the backend has no " + device_name + " device: every case skipped");
  if (expectations) report.expectations = report::ExpectationsOutcome{expectations->file(), {}, {}, {}, {}};
  RunReportFile report_file(ReportPath(options, device_name), &report);
  if (!report_file.Start(&error)) return UsageError("cannot write the report: " + error);
  const bool report_to_stdout = options.out == "-" || options.out == "/dev/stdout";
  PrintRunHeader(stdout, report, total, report_to_stdout ? "to standard output" : report_file.path());

  runner::RerunContext rerun;
  if (!options.argv.empty() && options.argv[0].find('/') != std::string::npos) rerun.program = options.argv[0];
  rerun.backends = options.backends;
  rerun.against = options.against;
  rerun.against_device = options.against_device;
  rerun.against_device_ids = options.against_device_ids;
  rerun.device = options.device;
  rerun.device_ids = options.device_ids;
  rerun.timeout = options.timeout_text;
  rerun.profile = options.profile;
  if (options.perf_budget_ms > 0) rerun.perf_budget_ms = NumberText(options.perf_budget_ms);
  rerun.cold_cache = options.cold_cache;
  if (options.iters > 0) rerun.iters = std::to_string(options.iters);
  if (options.warmup >= 0) rerun.warmup = std::to_string(options.warmup);
  rerun.collective_sweep = options.sweep.Given();
  RunDisplay display(static_cast<int>(total), options.quiet);
  {
    std::map<std::string, double> expected_ms;
    const runner::DurationModel &model = runner::DurationModel::BuiltIn();
    for (const SuiteCases &suite : suites) {
      for (const cts::ListedCase &listed : suite.cases) {
        expected_ms[listed.id] = model.ExpectedMs(listed) * (listed.mode == "perf" ? options.repeat : 1);
      }
    }
    display.ExpectDurations(std::move(expected_ms));
  }
  std::vector<std::string> notes;  // unexpected passes and flaky reruns, printed before the summary
  // Every case's final result goes through here, once.
  auto on_result = [&](CaseResult result) {
    if (shard_info) result.selection_index = selection_index.at(result.id);
    if (options.side == RunOptions::Side::kUnderTest) AddOtherSide(options.other_medians_ms, &result);
    if (report::IsFailure(result.status)) {
      if (!result.message.empty()) result.message += "\n";
      // Under mpirun the case needs its ranks again.
      const std::string launcher = link ? "mpirun -np " + std::to_string(link->layout().ranks) + " " : "";
      result.message += "rerun: " + launcher + runner::RerunCommand(rerun, result);
    }
    if (expectations) {
      if (const runner::Expectation *entry = expectations->Find(runner::ExpectationKind::kXfail, result.id)) {
        if (runner::ApplyXfail(*expectations, *entry, &result)) {
          report.expectations->unexpected_pass.push_back(result.id);
          notes.push_back("UNEXPECTED PASS " + result.id + " (listed as xfail in " + expectations->Where(*entry) + ")");
        } else if (result.status == Status::kXfail) {
          report.expectations->xfail.push_back(result.id);
        }
      }
    }
    display.OnResult(result);
    const CaseResult ended = result;
    // A second result for a case amends the first: a crash charged to it once rerun alone
    // showed the case after it was innocent (runner/suite_runner.h).
    if (!report.Replace(result)) report.Add(std::move(result));
    report_file.CaseEnded(ended);
  };
  const auto on_tick = [&](const cts::ListedCase *running) { display.OnTick(running); };

  bool finished = true;
  const bool no_device = device_count == 0;
  const std::string no_device_reason = "the backend has no " + device_name + " device";
  if (no_device) {
    std::fprintf(stderr, "infinicts: warning: %s; every selected case is skipped\n", no_device_reason.c_str());
  } else if (link) {
    runner::InterruptOnContinue();
  }
  std::vector<std::string> lost_ranks;  // under mpirun: ranks whose parts never came
  for (const SuiteCases &suite : suites) {
    // The cases the expectations file skips end here, before the suite runs.
    std::vector<cts::ListedCase> to_run;
    for (const cts::ListedCase &listed : suite.cases) {
      const runner::Expectation *skip =
          expectations ? expectations->Find(runner::ExpectationKind::kSkip, listed.id) : nullptr;
      if (skip == nullptr) {
        to_run.push_back(listed);
        continue;
      }
      if (report.expectations->skipped.empty()) {
        report.run.narrowed.push_back("--expect " + expectations->file() + " skipped cases");
      }
      report.expectations->skipped.push_back(listed.id);
      on_result(runner::SkippedResult(listed, *expectations, *skip));
    }
    if (no_device) {
      for (const cts::ListedCase &listed : to_run) {
        on_result(runner::ResultOfListed(listed, Status::kSkip, no_device_reason));
      }
      continue;
    }
    if (to_run.empty()) continue;

    // A flaky case that fails waits until the suite's other cases are done, then runs again alone.
    std::map<std::string, const cts::ListedCase *> listed_by_id;
    for (const cts::ListedCase &listed : to_run) listed_by_id[listed.id] = &listed;
    std::vector<std::pair<const runner::Expectation *, CaseResult>> flaky_failures;
    runner::SuiteRunSpec spec{suite.binary, suite.suite, options.backends, device_name, child_device_ids,
                              options.timeout_s};
    spec.rank_link = link;
    runner::SuiteRunner suite_runner(spec, to_run);
    // --repeat N: the perf cases' results wait, pass by pass, for the N-th pass to end.
    std::vector<cts::ListedCase> repeated;
    std::set<std::string> repeated_ids;
    if (options.repeat > 1) {
      for (const cts::ListedCase &listed : to_run) {
        if (listed.mode != "perf" || listed.invalid_input) continue;
        repeated.push_back(listed);
        repeated_ids.insert(listed.id);
      }
    }
    std::map<std::string, CaseResult> this_pass;  // by id: an amended result replaces the first
    std::map<std::string, std::vector<CaseResult>> passes_by_id;
    const auto end_pass = [&] {
      for (auto &[id, result] : this_pass) passes_by_id[id].push_back(std::move(result));
      this_pass.clear();
    };
    // Under mpirun this rank's parts go to the link, which delivers each case's verdict once
    // every rank's part is in; a flaky case cannot run again alone there (its peers moved on).
    std::map<std::string, size_t> index_of;
    if (link) {
      std::vector<std::string> ids;
      for (const cts::ListedCase &listed : to_run) {
        index_of[listed.id] = ids.size();
        ids.push_back(listed.id);
      }
      link->BeginCases(ids, on_result);
    }
    const bool suite_finished = suite_runner.Run(
        [&](CaseResult result) {
          if (repeated_ids.count(result.id)) {
            this_pass[result.id] = std::move(result);
            return;
          }
          if (link) {
            const size_t index = index_of.at(result.id);
            link->PartEnded(index, std::move(result));
            return;
          }
          const runner::Expectation *flaky =
              expectations && report::IsFailure(result.status)
                  ? expectations->Find(runner::ExpectationKind::kFlaky, result.id)
                  : nullptr;
          if (flaky) flaky_failures.emplace_back(flaky, std::move(result));
          else on_result(std::move(result));
        },
        on_tick);
    if (link && suite_finished) {
      lost_ranks = link->FinishCases(options.timeout_s + kLostRankGraceSeconds);
      for (const std::string &lost : lost_ranks) {
        report.run.failures.push_back(lost);
        report_file.RunFailed(lost);
        display.OnRunFailure(lost);
      }
    }
    if (link && !suite_finished) {
      // mpirun ends every rank when one is lost, rank 0 within about a second of the signal:
      // the cases left end `crash` under one run failure that names the rank, on the terminal
      // as one line, and in the journal in one write before the whole report.
      std::vector<std::string> why = suite_runner.run_failures();
      if (why.empty()) {
        if (const std::optional<std::string> gone = link->LostPeer()) why.push_back(*gone);
      }
      std::set<std::string> done;
      for (const CaseResult &result : report.results()) done.insert(result.id);
      std::vector<CaseResult> left;
      for (const cts::ListedCase &listed : to_run) {
        if (done.count(listed.id)) continue;
        left.push_back(runner::ResultOfListed(
            listed, Status::kCrash,
            "the MPI job was ended before this case's verdict: " +
                (why.empty() ? std::string("mpirun stopped this rank (a rank on another node was lost, or mpirun "
                                           "was interrupted)")
                             : why.front())));
      }
      const std::string ended = "the MPI job was ended while the cases ran: " +
                                (why.empty() ? std::string("mpirun stopped rank 0 (a rank on another node was lost, "
                                                           "or mpirun was interrupted)")
                                             : why.front()) +
                                "; the " + std::to_string(left.size()) + " case(s) left end crash";
      std::vector<std::string> failures{ended};
      for (size_t i = 1; i < why.size(); ++i) failures.push_back(why[i]);
      for (const CaseResult &result : left) report.Add(result);
      for (const std::string &failure : failures) report.run.failures.push_back(failure);
      report.run.complete = true;
      display.OnRunFailure(ended);
      display.Finish();
      std::string write_error;
      if (!report_file.FinishBeforeKill(left, failures, &write_error)) {
        std::fprintf(stderr, "infinicts: cannot write the report: %s\n", write_error.c_str());
      }
      std::fprintf(stderr, "infinicts: the MPI job was ended; %s holds every case's verdict\n",
                   report_file.path().c_str());
      link->AbortAll(kExitFailed);
    }
    for (const std::string &failure : suite_runner.run_failures()) {
      report.run.failures.push_back(failure);
      report_file.RunFailed(failure);
      display.OnRunFailure(failure);
    }
    if (!repeated.empty()) {
      end_pass();
      bool passes_finished = suite_finished;
      for (int pass = 2; pass <= options.repeat && passes_finished; ++pass) {
        runner::SuiteRunner pass_runner(spec, repeated);
        passes_finished = pass_runner.Run([&](CaseResult result) { this_pass[result.id] = std::move(result); }, on_tick);
        end_pass();
        for (const std::string &failure : pass_runner.run_failures()) {
          const std::string text = "pass " + std::to_string(pass) + " of " + std::to_string(options.repeat) +
                                   " (--repeat): " + failure;
          report.run.failures.push_back(text);
          report_file.RunFailed(text);
          display.OnRunFailure(text);
        }
      }
      // Interrupted, a case keeps the passes it finished.
      for (const cts::ListedCase &listed : repeated) {
        auto passes = passes_by_id.find(listed.id);
        if (passes != passes_by_id.end() && !passes->second.empty()) on_result(runner::MergePasses(std::move(passes->second)));
      }
      if (!passes_finished) finished = false;
    }
    for (auto &[entry, result] : flaky_failures) {
      int attempts = 1;
      if (suite_finished && finished) {
        const std::string where = expectations->Where(*entry);
        if (!RerunFlaky(spec, *listed_by_id.at(result.id), where, on_tick, &result, &attempts)) finished = false;
        report.expectations->flaky.push_back({result.id, attempts, result.status});
        notes.push_back("FLAKY " + result.id + ": " + report::StatusName(result.status) + " after " +
                        std::to_string(attempts) + " attempts (listed as flaky in " + where + ")");
      }
      on_result(std::move(result));
    }
    if (!suite_finished || !finished) {
      finished = false;
      break;
    }
  }
  display.Finish();

  if (!no_device) {
    runner::AddRoofline(*device_type, device_name, report.backend.device_ids.empty() ? 0 : report.backend.device_ids[0],
                &report);
  }
  report.run.complete = finished;
  if (!report_file.Finish(&error)) {
    std::fprintf(stderr, "infinicts: cannot write the report: %s\n", error.c_str());
    return kExitFailed;
  }
  if (!finished) {
    std::fprintf(stderr, "infinicts: interrupted; %s holds the %zu cases that finished\n", report_file.path().c_str(),
                 report.results().size());
    runner::ReraiseInterrupt();
  }
  if (!notes.empty()) std::printf("\n");
  for (const std::string &note : notes) std::printf("%s\n", note.c_str());
  if (report.expectations) {
    const report::ExpectationsOutcome &outcome = *report.expectations;
    std::printf("\nexpectations %s: %zu xfail, %zu unexpected pass, %zu flaky rerun, %zu skipped\n",
                outcome.file.c_str(), outcome.xfail.size(), outcome.unexpected_pass.size(), outcome.flaky.size(),
                outcome.skipped.size());
  }
  PrintSummary(stdout, report, report_to_stdout ? "standard output" : report_file.path());
  std::fflush(stdout);

  const report::StatusCounts &counts = report.counts();
  bool failed = !report.run.failures.empty();
  for (Status status : report::kAllStatuses) failed = failed || (report::IsFailure(status) && counts[status] > 0);
  // A --level is an exit code only when reached: not reached and not judged (a run without a
  // device under --allow-no-device, a narrowed run) both exit 1.
  const report::LevelOutcomes levels = report.levels();
  const bool level_missed = options.level && !(*options.level == "minimal" ? levels.minimal : levels.advanced).reached;
  if (level_missed && device_count == 0) {
    std::fprintf(stderr, "infinicts: --level %s was not judged: the backend has no %s device\n", options.level->c_str(),
                 device_name.c_str());
  }
  const int code = failed || level_missed ? kExitFailed : kExitOk;
  if (link && !lost_ranks.empty()) link->AbortAll(kExitFailed);  // a lost rank would never agree
  return link ? link->AgreeExitCode(code) : code;
}

}  // namespace

int RunCommand(const RunOptions &options) {
  std::string error;
  // Under mpirun: one runner per rank, rank 0's writing the report (runner/rank_link.h).
  const std::unique_ptr<runner::RankLink> link = runner::JoinMpiJob(&error);
  if (!error.empty()) return UsageError(error);
  if (options.against.empty() && (!options.against_device.empty() || !options.against_device_ids.empty())) {
    return UsageError("--against-device and --against-device-ids name the --against backend's devices: give --against");
  }
  if (!options.against.empty() && options.side == RunOptions::Side::kAlone) {
    if (link) return UsageError("--against is not available under mpirun: run the two backends side by side without it");
    return RunSideBySide(options, [](const RunOptions &side) { return RunAloneOrAsRankZero(side, nullptr); });
  }
  if (!link) return RunAloneOrAsRankZero(options, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a suite process stopped for a peer may leave its input pipe unread
  const int code = link->rank() == 0 ? RunAloneOrAsRankZero(options, link.get()) : RunRankPart(options, *link);
  // A rank that stopped before the cases (bad usage, a backend it cannot load) would leave
  // the others waiting for it: it ends the job.
  if (code == kExitUsage) link->AbortAll(code);
  return code;
}

}  // namespace infinicts::cli
