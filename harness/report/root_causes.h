// Failures grouped by root cause (docs/usage.md "Root causes"): cases that ended the same
// failing status with the same clause and the same message shape (their first lines with the
// numbers taken out) are one group, shown once with a count and a few example ids, so one
// broken call reads as one problem however many cases it reaches.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "report/case_result.h"

namespace infinicts::report {

inline constexpr size_t kRootCauseExamples = 3;

struct RootCauseGroup {
  Status status = Status::kFail;
  std::string clause;   // the first clause the first line names ("" when none)
  std::string message;  // the first line of the first case in the group
  int count = 0;
  std::vector<std::string> examples;  // the first kRootCauseExamples ids
};

// The first line with each number other than a clause's replaced by "#", and each bracketed
// list of numbers by "[…]": "output y [7, 31]: 3 of 217 elements" and "output y [2, 3, 5]: 5 of 30
// elements" have one shape.
std::string MessageShape(const std::string &first_line);
// The first clause id in a line ("RT-MEM-2"), or "".
std::string FirstClauseIn(const std::string &line);

class RootCauses {
 public:
  // Counts the result when it is a failure (fail, blocked, crash, timeout); others are ignored.
  void Add(const CaseResult &result);
  // Largest groups first (then in order of appearance).
  std::vector<RootCauseGroup> Groups() const;
  bool empty() const { return groups_.empty(); }

 private:
  std::map<std::string, size_t> index_;  // status + shape -> position in groups_
  std::vector<RootCauseGroup> groups_;
};

// "4 blocked: RT-STREAM-2 infinirtStreamCreate answered … (e.g. a, b, c)", the message cut to
// `width` characters.
std::string DescribeGroup(const RootCauseGroup &group, size_t width = 160);

}  // namespace infinicts::report
