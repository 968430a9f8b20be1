#include "runner/selection.h"

#include <fnmatch.h>

#include <algorithm>
#include <sstream>

#include "report/levels.h"

namespace infinicts::runner {
namespace {

std::string Trim(const std::string &text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

bool AnyMatches(const std::vector<std::string> &globs, const std::string &id) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](const std::string &glob) { return fnmatch(glob.c_str(), id.c_str(), 0) == 0; });
}

}  // namespace

CaseFilter::CaseFilter(const std::vector<std::string> &globs) {
  for (const std::string &text : globs) {
    std::istringstream parts(text);
    std::string part;
    while (std::getline(parts, part, ',')) {
      part = Trim(part);
      if (part.empty()) continue;
      if (part[0] == '-') {
        if (part.size() > 1) exclude_.push_back(part.substr(1));
      } else {
        include_.push_back(part);
      }
    }
  }
}

bool CaseFilter::Matches(const std::string &id) const {
  if (!include_.empty() && !AnyMatches(include_, id)) return false;
  return !AnyMatches(exclude_, id);
}

std::vector<cts::ListedCase> SelectCases(const std::vector<cts::ListedCase> &cases, const Selection &selection) {
  std::vector<cts::ListedCase> selected;
  for (const cts::ListedCase &listed : cases) {
    if (!selection.modes.empty() &&
        std::find(selection.modes.begin(), selection.modes.end(), listed.mode) == selection.modes.end())
      continue;
    if (selection.level == "minimal" && report::IsAdvancedOnly(listed.suite, listed.subject)) continue;
    if (!selection.subjects.empty() &&
        std::find(selection.subjects.begin(), selection.subjects.end(), listed.subject) == selection.subjects.end())
      continue;
    if (!selection.filter.Matches(listed.id)) continue;
    selected.push_back(listed);
  }
  return selected;
}

}  // namespace infinicts::runner
