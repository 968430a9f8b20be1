#include "cli/problem_lines.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cts/ad_hoc_problems.h"
#include "runner/interrupt.h"

namespace infinicts::cli {

ProblemLinesFile::~ProblemLinesFile() {
  if (!file_.path().empty()) unsetenv("INFINICTS_PROBLEMS");
}

bool ProblemLinesFile::Open(const ProblemOptions &options, std::vector<std::string> *suites, std::string *error) {
  if (!options.problems.empty() && options.op.empty()) {
    *error = "--problem needs --op NAME, the operator whose problem it is";
    return false;
  }
  if (!options.op.empty() && options.problems.empty()) {
    *error = "--op " + options.op + " names the operator of a --problem LINE; give the problem too, or use --cases FILE";
    return false;
  }
  if (!suites->empty() && !(suites->size() == 1 && suites->front() == "op")) {
    *error = "--problem and --cases give operator problems, which only the op suite takes; leave out --suite or "
             "write --suite op";
    return false;
  }
  std::string lines;
  std::vector<std::string> errors;
  if (!options.cases_file.empty()) {
    std::ifstream file(options.cases_file);
    if (!file) {
      *error = "cannot read the --cases file " + options.cases_file;
      return false;
    }
    std::stringstream text;
    text << file.rdbuf();
    for (const cts::AdHocProblem &problem : cts::ParseAdHocProblems(text.str(), options.cases_file, &errors)) {
      lines += std::string(cts::kWhereDirective) + problem.where + "\n" + problem.subject + " " + problem.line + "\n";
      subjects_.insert(problem.subject);
    }
    if (errors.empty() && subjects_.empty()) errors.push_back(options.cases_file + " holds no problem line");
  }
  for (const std::string &problem : options.problems) {
    if (problem.find('\n') != std::string::npos) errors.push_back("--problem takes one line: '" + problem + "'");
    else if (problem.find_first_not_of(" \t") == std::string::npos) errors.push_back("--problem is empty");
    lines += std::string(cts::kWhereDirective) + "--problem\n" + options.op + " " + problem + "\n";
    subjects_.insert(options.op);
  }
  if (!errors.empty()) {
    *error = errors.front();
    return false;
  }
  const char *tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/infinicts-problems-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) {
    *error = "cannot create a file for the problem lines in " + path;
    return false;
  }
  file_.Own(path);
  const bool written = write(fd, lines.data(), lines.size()) == static_cast<ssize_t>(lines.size());
  close(fd);
  if (!written) {
    *error = "cannot write the problem lines to " + path;
    return false;
  }
  setenv("INFINICTS_PROBLEMS", path.c_str(), 1);
  *suites = {"op"};
  return true;
}


}  // namespace infinicts::cli
