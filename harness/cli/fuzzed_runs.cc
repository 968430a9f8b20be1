#include "cli/fuzzed_runs.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <fstream>
#include <sstream>

#include "runner/child_process.h"
#include "runner/interrupt.h"
#include "runner/suite_binaries.h"

namespace infinicts::cli {
namespace {

// The value cases of a problem: what a random problem can break without a NULL or a bad
// argument (the conformance probes of those stay with the compiled-in cases).
const char *const kValueCases[] = {"op.*.accuracy/matches_oracle/*", "op.*.conformance/in_place/*"};

// Runs a program (args without argv[0]) to its end; its exit code, or -1 with *error when it did not exit normally.
int RunToEnd(const std::string &program, const std::vector<std::string> &args, std::string *out, std::string *error) {
  std::unique_ptr<runner::ChildProcess> child = runner::ChildProcess::Start(program, args, false, error);
  if (!child) return -1;
  std::string err;
  const auto sink = [&](runner::ChildProcess::Stream stream, std::string_view text) {
    (stream == runner::ChildProcess::Stream::kStdout ? *out : err).append(text);
  };
  std::optional<int> status;
  bool told_to_stop = false;
  while (!(status = child->TryReap())) {
    // Interrupted: the child (an `infinicts run`, in a process group of its own) winds down
    // as an interrupted run does, removing its own files, and the fuzzing stops after it.
    if (runner::Interrupted() && !told_to_stop) {
      kill(-child->pid(), SIGTERM);
      told_to_stop = true;
    }
    child->Pump(100, sink);
  }
  child->Drain(sink);
  if (!WIFEXITED(*status)) {
    *error = program + " ended by signal " + std::to_string(WTERMSIG(*status)) + ": " + err;
    return -1;
  }
  if (WEXITSTATUS(*status) == 2) *error = err.empty() ? out->substr(0, 2000) : err;
  return WEXITSTATUS(*status);
}

std::vector<ProblemLine> ParseLines(const std::string &text) {
  std::vector<ProblemLine> lines;
  std::istringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) {
    const size_t space = line.find(' ');
    if (space == std::string::npos) continue;
    lines.push_back({line.substr(0, space), line.substr(space + 1)});
  }
  return lines;
}

}  // namespace

std::string ThisExecutable() {
  const std::string path = runner::RunningExecutable();
  return path.empty() ? "infinicts" : path;
}

FuzzedRuns::FuzzedRuns(std::string work_dir, std::vector<std::string> run_args)
    : work_dir_(std::move(work_dir)), run_args_(std::move(run_args)) {}

bool FuzzedRuns::Draw(const std::string &op, uint64_t seed, size_t count, std::vector<ProblemLine> *lines,
                      std::string *error) {
  const std::string suite = runner::SuiteBinaryPath(runner::SuiteDirectory(), "op");
  std::string out;
  const int code = RunToEnd(suite, {"--cts-draw", op, "--cts-seed", std::to_string(seed), "--cts-count",
                                    std::to_string(count)}, &out, error);
  if (code != 0) {
    if (error->empty()) *error = "the op suite could not draw problems (exit " + std::to_string(code) + ")";
    return false;
  }
  *lines = ParseLines(out);
  return true;
}

bool FuzzedRuns::Simpler(const ProblemLine &problem, std::vector<ProblemLine> *lines, std::string *error) {
  const std::string suite = runner::SuiteBinaryPath(runner::SuiteDirectory(), "op");
  std::string out;
  const int code = RunToEnd(suite, {"--cts-shrink", problem.subject, "--cts-problem", problem.line}, &out, error);
  if (code != 0) {
    if (error->empty()) *error = "the op suite could not shrink a problem (exit " + std::to_string(code) + ")";
    return false;
  }
  *lines = ParseLines(out);
  return true;
}

bool FuzzedRuns::Run(const std::vector<ProblemLine> &lines, std::vector<FuzzedOutcome> *outcomes, std::string *error,
                     const std::string &report_path) {
  outcomes->clear();
  if (lines.empty()) return true;
  const std::string stem = work_dir_ + "/run" + std::to_string(++runs_);
  {
    std::ofstream cases(stem + ".cases");
    for (const ProblemLine &line : lines) cases << line.subject << " " << line.line << "\n";
  }
  const std::string report = report_path.empty() ? stem + ".json" : report_path;
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), run_args_.begin(), run_args_.end());
  args.insert(args.end(), {"--suite", "op", "--mode", "accuracy,conformance", "--cases", stem + ".cases", "--quiet",
                           "--out", report});
  for (const char *glob : kValueCases) args.insert(args.end(), {"--filter", glob});
  std::string out;
  const int code = RunToEnd(ThisExecutable(), args, &out, error);
  if (code != 0 && code != 1) {
    if (error->empty()) *error = "`infinicts run` of fuzzed problems ended with exit " + std::to_string(code);
    return false;
  }
  nlohmann::json json;
  try {
    std::ifstream file(report);
    json = nlohmann::json::parse(file);
  } catch (const std::exception &parse_error) {
    *error = "the report of fuzzed problems " + report + " does not read: " + parse_error.what();
    return false;
  }
  for (const nlohmann::json &result : json.value("results", nlohmann::json::array())) {
    FuzzedOutcome outcome;
    outcome.id = result.value("id", "");
    outcome.status = result.value("status", "");
    outcome.message = result.value("message", "");
    const nlohmann::json params = result.value("params", nlohmann::json::object());
    outcome.problem.line = params.value("problem", "");
    // op.<subject>.<mode>/<test>/<problem...>
    const size_t subject_end = outcome.id.find('.', 3);
    const size_t test_end = outcome.id.find('/', outcome.id.find('/') + 1);
    if (subject_end == std::string::npos || test_end == std::string::npos) continue;
    outcome.problem.subject = outcome.id.substr(3, subject_end - 3);
    outcome.test = outcome.id.substr(subject_end + 1, test_end - subject_end - 1);
    // The messages of checks/checks.cc: a refusal at create, and the suite's own errors.
    const bool failed = outcome.status == "fail";
    outcome.refused = failed && outcome.message.find("the create call answered") != std::string::npos;
    outcome.unchecked = failed && outcome.message.find("not the backend's") != std::string::npos;
    outcomes->push_back(outcome);
  }
  return true;
}

}  // namespace infinicts::cli
