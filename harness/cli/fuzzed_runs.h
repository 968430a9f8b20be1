// What `infinicts fuzz` starts: the op suite, to draw and shrink problem lines, and
// `infinicts run --cases`, to run them; each answers through its output and its report.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace infinicts::cli {

struct ProblemLine {
  std::string subject;
  std::string line;
};

// How one case of a fuzzed problem ended.
struct FuzzedOutcome {
  ProblemLine problem;
  std::string id, test;  // test: "accuracy/matches_oracle", "conformance/in_place"
  std::string status, message;
  // The backend refused the drawn problem at create: the draw may lie outside what the
  // operator admits, so it is counted, not reported.
  bool refused = false;
  // The suite could not check the problem: its own helpers refused it, or its data cannot
  // tell a right output from a wrong one (an empty or constant output). Counted, not reported.
  bool unchecked = false;
  bool Failing() const {
    return !refused && !unchecked && (status == "fail" || status == "crash" || status == "timeout");
  }
};

// The path of the running infinicts executable, as rerun lines name it.
std::string ThisExecutable();

class FuzzedRuns {
 public:
  // run_args: what every `infinicts run` takes besides its cases (--backend, --device, ...).
  FuzzedRuns(std::string work_dir, std::vector<std::string> run_args);

  // The op suite's draws (--cts-draw) and simpler lines (--cts-shrink); false and *error
  // when the suite cannot answer.
  bool Draw(const std::string &op, uint64_t seed, size_t count, std::vector<ProblemLine> *lines, std::string *error);
  bool Simpler(const ProblemLine &problem, std::vector<ProblemLine> *lines, std::string *error);

  // Runs the lines' value cases (accuracy against the oracle, in place); the report goes to
  // report_path when given. False and *error when the run could not be made (exit 2).
  bool Run(const std::vector<ProblemLine> &lines, std::vector<FuzzedOutcome> *outcomes, std::string *error,
           const std::string &report_path = "");

 private:
  std::string work_dir_;
  std::vector<std::string> run_args_;
  int runs_ = 0;
};

}  // namespace infinicts::cli
