#include "report/spec_clauses.h"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

namespace infinicts::spec {

// Generated from docs/spec/*.md (harness/report/CMakeLists.txt).
extern const char kRtSpecText[];
extern const char kOpSpecText[];
extern const char kCclSpecText[];

namespace {

const std::regex &ClauseItem() {
  static const std::regex item(R"(^\s*[-*]\s+\*\*([A-Z]+-[A-Z][A-Z0-9]*-[0-9]+)\*\*\s+(.*)$)");
  return item;
}

bool HasWord(const std::string &text, const char *word) {
  return std::regex_search(text, std::regex(std::string("\\b") + word + "\\b"));
}

}  // namespace

Spec ParseSpec(const std::string &markdown) {
  Spec spec;
  std::map<std::string, int> first_line;
  std::istringstream lines(markdown);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::smatch match;
    if (!std::regex_match(line, match, ClauseItem())) continue;
    const std::string id = match[1];
    const std::string sentence = match[2];
    const std::string where = "line " + std::to_string(number) + ": " + id;
    const bool must = HasWord(sentence, "MUST"), should = HasWord(sentence, "SHOULD");
    if (must == should) {
      spec.errors.push_back(where + (must ? " says both MUST and SHOULD" : " says neither MUST nor SHOULD"));
      continue;
    }
    if (auto [it, inserted] = first_line.emplace(id, number); !inserted) {
      spec.errors.push_back(where + " repeats the id of line " + std::to_string(it->second));
      continue;
    }
    spec.clauses.push_back(Clause{id, must, number});
  }
  if (spec.clauses.empty() && spec.errors.empty()) spec.errors.push_back("the spec has no clauses");
  return spec;
}


const std::vector<Clause> &BuiltInClauses() {
  static const std::vector<Clause> clauses = [] {
    std::vector<Clause> all;
    for (const char *text : {kRtSpecText, kOpSpecText, kCclSpecText}) {
      const Spec spec = ParseSpec(text);
      all.insert(all.end(), spec.clauses.begin(), spec.clauses.end());
    }
    return all;
  }();
  return clauses;
}

bool ChecksShouldOnly(const std::vector<std::string> &clauses) {
  static const std::map<std::string, bool> must_by_id = [] {
    std::map<std::string, bool> by_id;
    for (const Clause &clause : BuiltInClauses()) by_id[clause.id] = clause.must;
    return by_id;
  }();
  if (clauses.empty()) return false;
  return std::all_of(clauses.begin(), clauses.end(), [](const std::string &id) {
    const auto found = must_by_id.find(id);
    return found != must_by_id.end() && !found->second;
  });
}

}  // namespace infinicts::spec
