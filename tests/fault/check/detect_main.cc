// infinicts-fault-detect: one detection test. Runs a suite through the fault-injecting
// backend with the real `infinicts` command and checks the report:
//   with a fault:  the expected cases ended fail/crash/timeout, every listed case is
//                  reported, the run exited 1 (0 when the fault only makes cases
//                  unsupported), within the time budget;
//   without one:   every case passed, every listed case is reported, the run exited 0.
// With --launcher (mpirun -np N …) the run goes through the launcher and the listed cases are
// those the suite can spread one rank per process.
#include <CLI/CLI.hpp>

#include <set>
#include <sstream>

#include <cstdio>
#include <string>
#include <vector>

#include "check/process.h"
#include "check/report_checks.h"

namespace check = infinicts::fault::check;

namespace {

struct Options {
  std::string infinicts;
  std::string backend;
  std::string target;
  std::string fault = "none";
  std::string suite = "rt";
  std::string device = "cpu";
  std::string timeout = "10";
  std::string report;
  std::vector<std::string> expect;
  std::vector<std::string> blocked;  // cases that must end blocked
  std::vector<std::string> unsupported;  // cases that must end unsupported
  std::vector<std::string> skipped;      // cases that must end skip
  std::vector<std::string> invalid_input_crashes;  // cases that must crash on invalid input
  std::vector<std::string> parts;        // "PART=VERDICT" that summary.parts must hold
  std::vector<std::string> missing;      // capabilities summary.missing_capabilities must list
  bool only = false;                 // every case neither expected nor blocked must pass
  int root_causes = -1;              // how many root causes the failures must form (-1: not checked)
  std::vector<std::string> filter;  // passed to `infinicts list` and `infinicts run` alike
  std::string mode;                 // passed to both as --mode where given
  double max_seconds = 120;
  std::string launcher;                   // "mpirun -np 2 --oversubscribe": words run before infinicts
  std::vector<std::string> message_has;   // text every expected case's message must hold
  std::vector<std::string> message_lacks; // text no expected case's message may hold
  std::string run_failure_has;            // a run failure must hold it; the run exits non-zero
};

std::vector<std::string> Words(const std::string &text) {
  std::istringstream stream(text);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

// The ids the suite binary next to `infinicts` marks as running one rank per process.
std::set<std::string> AcrossProcessIds(const std::string &infinicts, const std::string &suite, const std::string &log) {
  const std::string binary = infinicts.substr(0, infinicts.rfind('/') + 1) + "infinicts-suite-" + suite;
  infinicts::fault::check::RunProcess({binary, "--cts-list"}, {}, log, 60);
  std::set<std::string> ids;
  std::istringstream lines(infinicts::fault::check::ReadFile(log));
  for (std::string line; std::getline(lines, line);) {
    const auto object = nlohmann::json::parse(line, nullptr, false);
    if (object.is_object() && object.value("across_processes", false)) ids.insert(object.value("id", std::string()));
  }
  return ids;
}

int failures = 0;

void Verdict(const std::string &check_name, const std::vector<std::string> &problems) {
  std::printf("%s: %s\n", problems.empty() ? "ok  " : "FAIL", check_name.c_str());
  for (const std::string &problem : problems) std::printf("      %s\n", problem.c_str());
  if (!problems.empty()) ++failures;
}

void PrintTail(const std::string &title, const std::string &text) {
  const size_t keep = 6000;
  std::printf("---- %s%s ----\n%s\n", title.c_str(), text.size() > keep ? " (tail)" : "",
              text.size() > keep ? text.substr(text.size() - keep).c_str() : text.c_str());
}

std::string Describe(const check::ProcessOutcome &outcome) {
  if (!outcome.started) return "did not start";
  if (outcome.timed_out) return "was killed after " + std::to_string(static_cast<int>(outcome.seconds)) + " s";
  if (outcome.exited) return "exited " + std::to_string(outcome.exit_code);
  return "died of signal " + std::to_string(outcome.signal);
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  CLI::App app{"Runs a suite through the fault-injecting backend and checks that the fault is caught"};
  app.add_option("--infinicts", options.infinicts, "the infinicts command")->required();
  app.add_option("--backend", options.backend, "the fault-injecting backend's folder")->required();
  app.add_option("--target", options.target, "the real backend the wrapper forwards to")->required();
  app.add_option("--fault", options.fault, "INFINICTS_FAULT, or none");
  app.add_option("--suite", options.suite, "the suite to run");
  app.add_option("--device", options.device, "the device type");
  app.add_option("--timeout", options.timeout, "the per-case time limit given to infinicts run");
  app.add_option("--report", options.report, "where the run writes its JSON report")->required();
  app.add_option("--expect", options.expect, "glob of case ids that must catch the fault (repeatable)");
  app.add_option("--blocked", options.blocked, "glob of case ids that must end blocked (repeatable)");
  app.add_option("--unsupported", options.unsupported, "glob of case ids that must end unsupported (repeatable)");
  app.add_option("--skipped", options.skipped, "glob of case ids that must end skip (repeatable)");
  app.add_option("--invalid-input-crash", options.invalid_input_crashes,
                 "glob of case ids that must crash on invalid input (repeatable)");
  app.add_option("--part", options.parts, "PART=VERDICT the report's summary.parts must hold (repeatable)");
  app.add_option("--missing-capability", options.missing, "a capability summary.missing_capabilities must list");
  app.add_flag("--only", options.only, "every case no --expect or --blocked glob matches must pass");
  app.add_option("--root-causes", options.root_causes, "how many root causes the report's failures must form");
  app.add_option("--max-seconds", options.max_seconds, "the whole run's time budget");
  app.add_option("--filter", options.filter, "glob of case ids to take, as infinicts --filter (repeatable)");
  app.add_option("--mode", options.mode, "modes to run, as infinicts --mode (default: its default)");
  app.add_option("--launcher", options.launcher, "words that start the run (mpirun -np 2 --oversubscribe)");
  app.add_option("--message-has", options.message_has, "text every expected case's message holds (repeatable)");
  app.add_option("--message-lacks", options.message_lacks, "text no expected case's message holds (repeatable)");
  app.add_option("--run-failure-has", options.run_failure_has,
                 "text a run failure holds (a lost rank): the run exits non-zero, its report complete");
  CLI11_PARSE(app, argc, argv);
  const bool clean = options.fault == "none";
  // A behaviour the interface allows may name no case: with --only, every case must then pass.
  if (!clean && !options.only && options.expect.empty() && options.blocked.empty() && options.unsupported.empty() &&
      options.skipped.empty() && options.invalid_input_crashes.empty()) {
    std::fprintf(stderr, "a fault needs --only, or at least one --expect, --blocked, --unsupported, --skipped or --invalid-input-crash glob\n");
    return 2;
  }

  const std::string list_log = options.report + ".list.txt";
  std::vector<std::string> selection = {"--suite", options.suite};
  if (!options.mode.empty()) selection.insert(selection.end(), {"--mode", options.mode});
  for (const std::string &glob : options.filter) selection.push_back("--filter=" + glob);
  std::vector<std::string> list_argv = {options.infinicts, "list"};
  list_argv.insert(list_argv.end(), selection.begin(), selection.end());
  const check::ProcessOutcome listing = check::RunProcess(list_argv, {}, list_log, 60);
  const std::string list_output = check::ReadFile(list_log);
  if (!listing.exited || listing.exit_code != 0) {
    std::printf("FAIL: `infinicts list --suite %s` %s\n", options.suite.c_str(), Describe(listing).c_str());
    PrintTail("infinicts list", list_output);
    return 1;
  }
  std::vector<std::string> listed = check::ParseListedIds(list_output, options.suite);
  if (!options.launcher.empty()) {
    const std::set<std::string> across = AcrossProcessIds(options.infinicts, options.suite, list_log + ".cts");
    std::vector<std::string> kept;
    for (const std::string &id : listed) {
      if (across.count(id)) kept.push_back(id);
    }
    listed = std::move(kept);
  }

  const std::string run_log = options.report + ".log";
  std::remove(options.report.c_str());
  std::vector<std::string> run_argv = Words(options.launcher);
  for (const std::string &word : {options.infinicts, std::string("run"), std::string("--backend"), options.backend,
                                  std::string("--device"), options.device, std::string("--timeout"), options.timeout,
                                  std::string("--out"), options.report, std::string("--quiet")}) {
    run_argv.push_back(word);
  }
  run_argv.insert(run_argv.end(), selection.begin(), selection.end());
  const check::ProcessOutcome run = check::RunProcess(
      run_argv, {{"INFINICTS_FAULT", clean ? "" : options.fault}, {"INFINICTS_FAULT_TARGET", options.target}},
      run_log, options.max_seconds);
  std::printf("fault %s: infinicts run %s in %.1f s; %zu cases listed\n", options.fault.c_str(),
              Describe(run).c_str(), run.seconds, listed.size());

  char budget[32];
  std::snprintf(budget, sizeof budget, "%g", options.max_seconds);
  Verdict(std::string("the run finished within ") + budget + " s",
          run.timed_out ? std::vector<std::string>{"it did not"} : std::vector<std::string>{});
  // Unsupported cases alone fail nothing.
  const int expected_exit =
      clean || (options.expect.empty() && options.blocked.empty() && options.invalid_input_crashes.empty()) ? 0 : 1;
  if (!options.run_failure_has.empty()) {
    // A lost rank: mpirun's own exit status names the signal that ended it, not infinicts'.
    Verdict("the run exited non-zero", run.exited && run.exit_code != 0 ? std::vector<std::string>{}
                                                                          : std::vector<std::string>{"it " + Describe(run)});
  } else {
    Verdict("the run exited " + std::to_string(expected_exit),
            run.exited && run.exit_code == expected_exit ? std::vector<std::string>{}
                                                          : std::vector<std::string>{"it " + Describe(run)});
  }

  const auto report = nlohmann::json::parse(check::ReadFile(options.report), nullptr, false);
  if (!report.is_object()) {
    Verdict("the report " + options.report + " is a JSON object", {"it is missing or not JSON"});
  } else {
    Verdict("every listed case is reported once", check::CheckComplete(report, listed));
    if (clean) {
      Verdict("every case passed", check::CheckAllPass(report, !options.launcher.empty()));
    } else {
      if (!options.expect.empty()) {
        Verdict("the expected cases caught the fault", check::CheckCaught(report, options.expect));
      }
      if (!options.message_has.empty() || !options.message_lacks.empty()) {
        Verdict("the expected cases' messages say which rank",
                check::CheckMessages(report, options.expect, options.message_has, options.message_lacks));
      }
      if (!options.run_failure_has.empty()) {
        Verdict("the complete report names the run failure", check::CheckRunFailure(report, options.run_failure_has));
        // The cases a lost rank leaves end under one line on the terminal, not one line each.
        const std::string log = check::ReadFile(run_log);
        size_t per_case_lines = 0;
        for (size_t at = log.find("before this case's verdict"); at != std::string::npos;
             at = log.find("before this case's verdict", at + 1)) {
          ++per_case_lines;
        }
        Verdict("the terminal shows the lost rank in one line",
                per_case_lines == 0 ? std::vector<std::string>{}
                                    : std::vector<std::string>{std::to_string(per_case_lines) + " line(s) for single cases"});
      }
      if (!options.blocked.empty()) {
        Verdict("the cases that need what the fault breaks ended blocked",
                check::CheckEndedAs(report, options.blocked, "blocked"));
      }
      if (!options.unsupported.empty()) {
        Verdict("the cases of what the fault takes away ended unsupported",
                check::CheckEndedAs(report, options.unsupported, "unsupported"));
      }
      if (!options.skipped.empty()) {
        Verdict("the cases that cannot apply ended skip", check::CheckEndedAs(report, options.skipped, "skip"));
      }
      if (!options.invalid_input_crashes.empty()) {
        Verdict("the probes of what the backend leaves unchecked crashed on invalid input",
                check::CheckCrashedOnInvalidInput(report, options.invalid_input_crashes));
      }
      if (!options.parts.empty()) Verdict("the parts' verdicts", check::CheckPartVerdicts(report, options.parts));
      if (!options.missing.empty()) {
        Verdict("the missing capabilities are listed", check::CheckMissingCapabilities(report, options.missing));
      }
      if (options.root_causes >= 0) {
        Verdict("the failures form " + std::to_string(options.root_causes) + " root cause(s)",
                check::CheckRootCauses(report, options.root_causes));
      }
      if (options.only) {
        std::vector<std::string> named = options.expect;
        named.insert(named.end(), options.blocked.begin(), options.blocked.end());
        named.insert(named.end(), options.unsupported.begin(), options.unsupported.end());
        named.insert(named.end(), options.skipped.begin(), options.skipped.end());
        named.insert(named.end(), options.invalid_input_crashes.begin(), options.invalid_input_crashes.end());
        Verdict("every other case passed", check::CheckOthersPass(report, named, !options.launcher.empty()));
      }
      std::vector<std::string> caught;
      for (const auto &result : report.value("results", nlohmann::json::array())) {
        const std::string status = result.value("status", std::string());
        if (status != "pass") caught.push_back(status + ": " + result.value("id", std::string()));
      }
      std::printf("cases not passing under the fault (%zu):\n", caught.size());
      for (const std::string &line : caught) std::printf("      %s\n", line.c_str());
    }
  }
  if (failures != 0) PrintTail("infinicts run output", check::ReadFile(run_log));
  return failures == 0 ? 0 : 1;
}
