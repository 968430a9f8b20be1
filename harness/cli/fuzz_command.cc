#include "cli/fuzz_command.h"
#include "cli/outputs.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "cli/fuzzed_runs.h"
#include "report/output_file.h"
#include "runner/interrupt.h"
#include "runner/rerun_command.h"

namespace infinicts::cli {
namespace {

// Shrinking goes on past the budget (a found failure is worth its minimal problem), but
// no further than this many steps, and no longer than the budget (at least this long) for
// each failure.
constexpr int kMaxShrinkSteps = 60;
constexpr double kMinShrinkSeconds = 30;

struct Finding {
  FuzzedOutcome drawn;   // the first failing draw
  FuzzedOutcome shrunk;  // the simplest problem that fails alike
  int steps = 0;
  double found_after_s = 0;
  size_t problems_before = 0;  // problems drawn before the round that found it
};

class Clock {
 public:
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string RerunLine(const FuzzOptions &options, const FuzzedOutcome &outcome) {
  using runner::ShellQuote;
  std::string line = ShellQuote(ThisExecutable()) + " run";
  for (const std::string &backend : options.backends) line += " --backend " + ShellQuote(backend);
  line += " --device " + ShellQuote(options.device);
  if (!options.device_ids.empty()) line += " --device-ids " + ShellQuote(options.device_ids);
  return line + " --op " + ShellQuote(outcome.problem.subject) + " --problem " + ShellQuote(outcome.problem.line) +
         " --filter " + ShellQuote("op." + outcome.problem.subject + "." + outcome.test + "/*");
}

// A failure fails alike when the same case fails with the same status.
const FuzzedOutcome *FailingAlike(const std::vector<FuzzedOutcome> &outcomes, const ProblemLine &problem,
                                  const FuzzedOutcome &like) {
  for (const FuzzedOutcome &outcome : outcomes) {
    if (outcome.Failing() && outcome.problem.subject == problem.subject && outcome.problem.line == problem.line &&
        outcome.test == like.test && outcome.status == like.status)
      return &outcome;
  }
  return nullptr;
}

bool Shrink(FuzzedRuns &runs, double seconds, Finding *finding, std::string *error) {
  const Clock clock;
  for (finding->steps = 0; finding->steps < kMaxShrinkSteps && clock.Seconds() < seconds; ++finding->steps) {
    std::vector<ProblemLine> simpler;
    if (!runs.Simpler(finding->shrunk.problem, &simpler, error)) return false;
    std::vector<FuzzedOutcome> outcomes;
    if (!runs.Run(simpler, &outcomes, error)) return false;
    const FuzzedOutcome *next = nullptr;
    for (const ProblemLine &line : simpler) {  // simplest first
      if ((next = FailingAlike(outcomes, line, finding->shrunk))) break;
    }
    if (!next) return true;
    finding->shrunk = *next;
  }
  return true;
}

std::string FirstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

nlohmann::json FindingJson(const FuzzOptions &options, const Finding &finding) {
  return {{"operator", finding.drawn.problem.subject},
          {"case", finding.shrunk.test},
          {"status", finding.shrunk.status},
          {"message", FirstLine(finding.shrunk.message)},
          {"drawn", finding.drawn.problem.line},
          {"shrunk", finding.shrunk.problem.line},
          {"shrink_steps", finding.steps},
          {"found_after_s", finding.found_after_s},
          {"problems_before", finding.problems_before},
          {"rerun", RerunLine(options, finding.shrunk)}};
}

}  // namespace

bool ParseBudget(const std::string &text, double *seconds) {
  if (text.empty()) return false;
  char *end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  const std::string unit = end;
  const std::map<std::string, double> units = {{"", 1}, {"s", 1}, {"m", 60}, {"min", 60}, {"h", 3600}};
  if (end == text.c_str() || !units.count(unit) || !(value > 0)) return false;
  *seconds = value * units.at(unit);
  return true;
}

int FuzzCommand(const FuzzOptions &options) {
  std::error_code fs_error;
  std::string error;
  // Ctrl-C or SIGTERM ends the fuzzing after the run in flight winds down: the findings printed
  // so far stand, the working directory goes.
  runner::InstallInterruptHandlers();
  const std::string work_dir = MakeWorkingDirectory("fuzz", &error);
  if (work_dir.empty()) return UsageError("fuzz: " + error);
  const runner::OwnedPath owned_work_dir(work_dir);
  std::vector<Finding> findings;
  const auto stop_if_interrupted = [&] {
    if (!runner::Interrupted()) return;
    std::fprintf(stderr, "infinicts fuzz: interrupted; %zu findings, printed above\n", findings.size());
    runner::ReraiseInterrupt();
  };
  std::vector<std::string> run_args;
  for (const std::string &backend : options.backends) run_args.insert(run_args.end(), {"--backend", backend});
  run_args.insert(run_args.end(), {"--device", options.device, "--timeout", std::to_string(options.timeout_s)});
  if (!options.device_ids.empty()) run_args.insert(run_args.end(), {"--device-ids", options.device_ids});
  FuzzedRuns runs(work_dir, run_args);
  const auto fail = [&](const std::string &why) {
    stop_if_interrupted();  // a run cut short by the interrupt is no error of the fuzzing
    return UsageError("fuzz: " + why);
  };

  const Clock clock;
  std::set<std::string> found;  // "<operator> <case>": each is shrunk once
  std::vector<ProblemLine> last_round;
  size_t problems = 0, refused = 0, unchecked = 0, unsupported = 0, rounds = 0, failing = 0;
  std::printf("fuzz: %s, seed %llu, budget %.0f s\n", options.op.c_str(), static_cast<unsigned long long>(options.seed),
              options.budget_s);
  for (; clock.Seconds() < options.budget_s && !runner::Interrupted(); ++rounds) {
    std::vector<ProblemLine> lines;
    // One seed per round, so that a longer budget replays a shorter one's rounds first.
    if (!runs.Draw(options.op, options.seed * 1000003ull + rounds, options.draws, &lines, &error)) return fail(error);
    if (lines.empty()) return fail("the op suite drew no problem of " + options.op);
    std::vector<FuzzedOutcome> outcomes;
    if (!runs.Run(lines, &outcomes, &error)) return fail(error);
    last_round = lines;
    for (const FuzzedOutcome &outcome : outcomes) {
      refused += outcome.refused;
      unchecked += outcome.unchecked;
      unsupported += outcome.status == "unsupported";
      if (!outcome.Failing()) continue;
      ++failing;
      if (!found.insert(outcome.problem.subject + " " + outcome.test).second) continue;
      Finding finding;
      finding.drawn = finding.shrunk = outcome;
      finding.found_after_s = clock.Seconds();
      finding.problems_before = problems;
      std::printf("fuzz: %s %s %s: %s\n  drawn:  %s\n", outcome.problem.subject.c_str(), outcome.test.c_str(),
                  outcome.status.c_str(), FirstLine(outcome.message).c_str(), outcome.problem.line.c_str());
      std::fflush(stdout);
      if (!Shrink(runs, std::max(options.budget_s, kMinShrinkSeconds), &finding, &error)) return fail(error);
      std::printf("  shrunk: %s (%d steps)\n  rerun:  %s\n", finding.shrunk.problem.line.c_str(), finding.steps,
                  RerunLine(options, finding.shrunk).c_str());
      std::fflush(stdout);
      findings.push_back(finding);
    }
    problems += lines.size();
  }
  stop_if_interrupted();

  // The report: the shrunk problems' cases (or, when nothing failed, the last round's), with
  // what the fuzzing did under run.fuzz.
  std::vector<ProblemLine> reported;
  for (const Finding &finding : findings) reported.push_back(finding.shrunk.problem);
  if (reported.empty()) reported = last_round;
  const std::string out = options.out.empty() ? DefaultReportPath("fuzz-", options.device) : options.out;
  const std::string staged = work_dir + "/report.json";
  std::vector<FuzzedOutcome> outcomes;
  if (!runs.Run(reported, &outcomes, &error, staged)) return fail(error);
  nlohmann::json report;
  try {
    std::ifstream file(staged);
    report = nlohmann::json::parse(file);
  } catch (const std::exception &parse_error) {
    return fail(std::string("the final report does not read: ") + parse_error.what());
  }
  nlohmann::json fuzz = {{"operator", options.op},   {"seed", options.seed},     {"budget_s", options.budget_s},
                         {"elapsed_s", clock.Seconds()}, {"rounds", rounds},     {"problems", problems},
                         {"failing_cases", failing},  {"refused_cases", refused}, {"unchecked_cases", unchecked},
                         {"unsupported_cases", unsupported},
                         {"findings", nlohmann::json::array()}};
  for (const Finding &finding : findings) fuzz["findings"].push_back(FindingJson(options, finding));
  report["run"]["fuzz"] = fuzz;
  report["run"]["argv"] = options.argv;
  if (std::filesystem::path(out).has_parent_path())
    std::filesystem::create_directories(std::filesystem::path(out).parent_path(), fs_error);
  if (!report::WriteOutput(out, report.dump(1) + "\n", report::WriteMode::kReplace, true, &error))
    return fail("cannot write " + out + ": " + error);

  std::printf("fuzz: %zu rounds, %zu problems in %.0f s; %zu failing cases, %zu refused at create, %zu the suite "
              "cannot check, %zu unsupported; %zu findings\nreport: %s\n",
              rounds, problems, clock.Seconds(), failing, refused, unchecked, unsupported, findings.size(), out.c_str());
  return findings.empty() ? kExitOk : kExitFailed;
}

}  // namespace infinicts::cli
