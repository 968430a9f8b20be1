#include "common/case_files.h"

namespace infinicts::op_cases {

std::vector<cts::AdHocProblem> CaseFileLines(const std::vector<CaseFile> &files, const std::string &subject,
                                             const std::string &set, std::vector<std::string> *errors) {
  const std::string path = "suites/op/cases/" + subject + "." + set + ".cases";
  for (const CaseFile &file : files) {
    if (path != file.path) continue;
    std::vector<cts::AdHocProblem> lines;
    for (cts::AdHocProblem &line : cts::ParseAdHocProblems(file.text, path, errors)) {
      if (line.subject == subject) lines.push_back(std::move(line));
      else errors->push_back(line.where + ": a line of " + line.subject + " in " + subject + "'s case file");
    }
    if (lines.empty()) errors->push_back(path + " holds no problem line");
    return lines;
  }
  errors->push_back("no case file " + path + " was compiled in: the " + set + " cases of " + subject +
                    " come from it (docs/usage.md \"Case files\")");
  return {};
}

}  // namespace infinicts::op_cases
