// docs/spec/op.md's flop table ("Performance") is the operator suite's cost model: the rows
// the build makes of it (cmake/op_flop_table.cmake, suites/op/common/flop_counts.h) are the
// table's, every operator of include/infiniop/operators.def has a row (Gemm and Conv aside:
// their counts are formulas), and every row is an operator's.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/flop_counts.h"

namespace infinicts::op_cases {
namespace {

// subject -> flops per element, from the table's rows "| add, sub, mul | 1 | |".
std::map<std::string, double> TableOf(const std::string &path) {
  std::ifstream file(path);
  std::map<std::string, double> table;
  std::string line;
  bool inside = false;
  while (std::getline(file, line)) {
    if (line.rfind("| subject | flops per element", 0) == 0) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.rfind("|---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') break;
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
    if (cells.size() < 2) continue;
    const double count = std::stod(cells[1]);
    std::stringstream subjects(cells[0]);
    for (std::string subject; std::getline(subjects, subject, ',');) {
      const size_t first = subject.find_first_not_of(' '), last = subject.find_last_not_of(' ');
      if (first != std::string::npos) table[subject.substr(first, last - first + 1)] = count;
    }
  }
  return table;
}

TEST(FlopTable, TheSuiteCountsAreTheSpecs) {
  const std::map<std::string, double> table = TableOf(INFINICTS_OP_SPEC);
  ASSERT_FALSE(table.empty()) << "no flop table in " << INFINICTS_OP_SPEC;
  std::map<std::string, double> counted;
  for (const SubjectFlops &entry : kFlopsBySubject) counted[std::string(entry.subject)] = entry.flops_per_element;
  EXPECT_EQ(counted, table) << "the rows the build made of the table are not the table's (cmake/op_flop_table.cmake)";
}

#define OPERATOR(Name, subject, ...) #subject,
const char *const kOperatorSubjects[] = {
#include "infiniop/operators.def"
};
#undef OPERATOR

TEST(FlopTable, EveryOperatorHasARowAndEveryRowAnOperator) {
  const std::set<std::string> formulas = {"gemm", "conv"};  // the table's preamble gives theirs
  std::set<std::string> operators;
  for (const char *subject : kOperatorSubjects) {
    operators.insert(subject);
    if (formulas.count(subject)) continue;
    bool found = false;
    for (const SubjectFlops &entry : kFlopsBySubject) found = found || entry.subject == subject;
    EXPECT_TRUE(found) << subject << " has no row in the flop table of " << INFINICTS_OP_SPEC;
  }
  for (const SubjectFlops &entry : kFlopsBySubject) {
    EXPECT_TRUE(operators.count(std::string(entry.subject)))
        << "the flop table's row " << entry.subject << " names no operator of include/infiniop/operators.def";
  }
}

}  // namespace
}  // namespace infinicts::op_cases
