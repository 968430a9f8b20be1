// Which listed cases a command takes: by mode, by --filter globs on case ids, and
// by --level (minimal leaves out the advanced-only parts).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cts/case_list.h"

namespace infinicts::runner {

// --filter: fnmatch globs on case ids, comma-separated; a glob that starts with '-'
// excludes. Without an including glob every case is included.
class CaseFilter {
 public:
  CaseFilter() = default;
  explicit CaseFilter(const std::vector<std::string> &globs);  // each may itself hold commas
  bool Matches(const std::string &id) const;
  bool empty() const { return include_.empty() && exclude_.empty(); }

 private:
  std::vector<std::string> include_;
  std::vector<std::string> exclude_;
};

struct Selection {
  std::vector<std::string> modes;  // empty: every mode
  CaseFilter filter;
  std::optional<std::string> level;  // "minimal" or "advanced"
  std::vector<std::string> subjects;  // empty: every subject (problem lines name theirs)
};

std::vector<cts::ListedCase> SelectCases(const std::vector<cts::ListedCase> &cases, const Selection &selection);

}  // namespace infinicts::runner
