#include "cts/ad_hoc_problems.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace infinicts::cts {
namespace {

struct AdHocState {
  bool active = false;
  std::vector<AdHocProblem> problems;
  std::vector<std::string> errors;
};

AdHocState &State() {
  static AdHocState state = [] {
    AdHocState loaded;
    const char *path = std::getenv("INFINICTS_PROBLEMS");
    if (!path || !*path) return loaded;
    loaded.active = true;
    std::ifstream file(path);
    if (!file) {
      loaded.errors.push_back(std::string("cannot read the problems file ") + path);
      return loaded;
    }
    std::stringstream text;
    text << file.rdbuf();
    loaded.problems = ParseAdHocProblems(text.str(), path, &loaded.errors);
    return loaded;
  }();
  return state;
}

std::map<std::string, ProblemFuzzing> &Subjects() {
  static std::map<std::string, ProblemFuzzing> subjects;
  return subjects;
}

void AddError(std::vector<std::string> *errors, const std::string &error) {
  if (std::find(errors->begin(), errors->end(), error) == errors->end()) errors->push_back(error);
}

}  // namespace

std::vector<AdHocProblem> ParseAdHocProblems(const std::string &text, const std::string &name,
                                             std::vector<std::string> *errors) {
  std::vector<AdHocProblem> problems;
  std::istringstream lines(text);
  std::string line, given_where;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.rfind(kWhereDirective, 0) == 0) {
      given_where = line.substr(std::string(kWhereDirective).size());
      continue;
    }
    const size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    const size_t end = line.find_last_not_of(" \t\r");
    line = line.substr(start, end - start + 1);
    const size_t space = line.find_first_of(" \t");
    AdHocProblem problem;
    problem.where = given_where.empty() ? name + ":" + std::to_string(number) : given_where;
    given_where.clear();
    problem.subject = line.substr(0, space);
    if (space != std::string::npos) problem.line = line.substr(line.find_first_not_of(" \t", space));
    if (problem.line.empty()) {
      AddError(errors, problem.where + ": '" + line + "' names no problem (write: <operator> <problem line>)");
      continue;
    }
    problems.push_back(problem);
  }
  return problems;
}

bool AdHocProblemsActive() { return State().active; }

std::vector<AdHocProblem> AdHocProblemsFor(const std::string &subject) {
  std::vector<AdHocProblem> picked;
  for (const AdHocProblem &problem : State().problems) {
    if (problem.subject == subject) picked.push_back(problem);
  }
  return picked;
}

bool RegisterProblemSubject(const std::string &subject, ProblemFuzzing fuzzing) {
  Subjects()[subject] = std::move(fuzzing);
  return true;
}

const std::map<std::string, ProblemFuzzing> &ProblemSubjects() { return Subjects(); }

void RecordAdHocProblemError(const AdHocProblem &problem, const std::string &why) {
  AddError(&State().errors, problem.where + ": " + problem.subject + " " + problem.line + ": " + why);
}

void RecordProblemLinesError(const std::string &error) { AddError(&State().errors, error); }

std::vector<std::string> AdHocProblemErrors() {
  std::vector<std::string> errors = State().errors;
  for (const AdHocProblem &problem : State().problems) {
    if (Subjects().count(problem.subject)) continue;
    std::string known;
    for (const auto &[subject, fuzzing] : Subjects()) known += (known.empty() ? "" : ", ") + subject;
    AddError(&errors, problem.where + ": no operator " + problem.subject + " takes problem lines (those that do: " +
                          known + ")");
  }
  return errors;
}

}  // namespace infinicts::cts
