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
#include "spec_links.h"

namespace infinicts::op_cases {
namespace {

// subject -> flops per element, from the table's rows "| add, sub, mul | 1 | |".
std::map<std::string, double> TableOf(const std::string &path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  std::map<std::string, double> table;
  for (const std::vector<std::string> &cells : spec::TableRows(text.str(), "| subject | flops per element")) {
    if (cells.size() < 2) continue;
    for (const std::string &subject : spec::ListedNames(cells[0])) table[subject] = std::stod(cells[1]);
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
  const std::set<std::string> formulas = {"gemm", "i8_gemm", "conv"};  // the table's preamble gives theirs
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
