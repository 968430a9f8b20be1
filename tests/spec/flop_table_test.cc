// docs/spec/op.md's flop table ("Performance") and the counts the operator suite records
// (suites/op/common/flop_counts.h) are one cost model: every subject of the table has its
// count, and every count is the table's.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
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
  for (const SubjectFlops &entry : kFlopsBySubject) counted[entry.subject] = entry.flops_per_element;

  for (const auto &[subject, count] : counted) {
    const auto row = table.find(subject);
    if (row == table.end()) {
      ADD_FAILURE() << subject << ": no row in the spec's flop table";
      continue;
    }
    EXPECT_EQ(count, row->second) << subject << ": the suite counts " << count << " flops per element, the spec "
                                  << row->second;
  }
  for (const auto &[subject, count] : table) {
    EXPECT_TRUE(counted.count(subject)) << subject << " (" << count << " in the spec) has no count in the suite";
  }
}

}  // namespace
}  // namespace infinicts::op_cases
