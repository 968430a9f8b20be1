#include "cts/failure_text.h"

#include <cctype>
#include <optional>
#include <regex>
#include <sstream>

namespace infinicts::cts {
namespace {

std::vector<std::string> Lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string Joined(const std::vector<std::string> &lines, size_t from) {
  std::string text;
  for (size_t i = from; i < lines.size(); ++i) text += (text.empty() ? "" : "\n") + lines[i];
  return text;
}

bool StartsWith(const std::string &text, const std::string &prefix) { return text.rfind(prefix, 0) == 0; }

std::string Trimmed(const std::string &text) {
  const size_t first = text.find_first_not_of(' ');
  return first == std::string::npos ? "" : text.substr(first);
}

// What GoogleTest said, reworded: the claim, and the lines after it (the assertion's own message).
struct Reworded {
  std::string claim;  // "expected x == y, got 1 and 2"
  size_t message_from = 0;
};

// "Value of: EXPR" / "  Actual: A[ (DETAIL)]" / "Expected: E".
std::optional<Reworded> FromValueOf(const std::vector<std::string> &lines) {
  if (lines.size() < 3 || !StartsWith(lines[0], "Value of: ") || !StartsWith(lines[1], "  Actual: ") ||
      !StartsWith(lines[2], "Expected: ")) {
    return std::nullopt;
  }
  const std::string expression = lines[0].substr(10), actual = lines[1].substr(10), expected = lines[2].substr(10);
  std::string claim;
  // An AssertionResult's own explanation says it best: "false (3 bytes differ, …)".
  if (const size_t open = actual.find(" ("); open != std::string::npos && actual.back() == ')') {
    claim = actual.substr(open + 2, actual.size() - open - 3);
  } else {
    claim = "expected " + expression + " to be " + expected + ", got " + actual;
  }
  return Reworded{claim, 3};
}

// "Expected equality of these values:" / "  LHS" / ["    Which is: X"] / "  RHS" / ["    Which is: Y"].
std::optional<Reworded> FromEquality(const std::vector<std::string> &lines) {
  if (lines.empty() || lines[0] != "Expected equality of these values:") return std::nullopt;
  std::vector<std::string> sides;
  size_t at = 1;
  while (at < lines.size() && sides.size() < 2 && StartsWith(lines[at], "  ") && !StartsWith(lines[at], "    ")) {
    std::string side = Trimmed(lines[at++]);
    if (at < lines.size() && StartsWith(lines[at], "    Which is: ")) side += " (" + lines[at++].substr(14) + ")";
    sides.push_back(side);
  }
  if (sides.size() != 2) return std::nullopt;
  return Reworded{"expected " + sides[0] + " to equal " + sides[1], at};
}

// "Expected: (LHS) OP (RHS), actual: X vs Y".
std::optional<Reworded> FromComparison(const std::vector<std::string> &lines) {
  static const std::regex shape(R"(^Expected: \((.*)\) (==|!=|<|<=|>|>=) \((.*)\), actual: (.*) vs (.*)$)");
  std::smatch match;
  if (lines.empty() || !std::regex_match(lines[0], match, shape)) return std::nullopt;
  return Reworded{"expected " + match[1].str() + " " + match[2].str() + " " + match[3].str() + ", got " +
                      match[4].str() + " vs " + match[5].str(),
                  1};
}

// "The difference between A and B is D, which exceeds T, where" / "A evaluates to X," /
// "B evaluates to Y, and" / "T evaluates to Z.".
std::optional<Reworded> FromNear(const std::vector<std::string> &lines) {
  static const std::regex shape(R"(^The difference between (.*) and (.*) is (.*), which exceeds (.*), where$)");
  std::smatch match;
  if (lines.size() < 4 || !std::regex_match(lines[0], match, shape)) return std::nullopt;
  const auto value = [](std::string line, const std::string &name) {
    const std::string lead = name + " evaluates to ";
    if (!StartsWith(line, lead)) return std::string("?");
    line = line.substr(lead.size());
    for (const char *tail : {", and", ",", "."}) {
      const std::string end = tail;
      if (line.size() >= end.size() && line.compare(line.size() - end.size(), end.size(), end) == 0) {
        line.erase(line.size() - end.size());
        break;
      }
    }
    return line;
  };
  const std::string a = match[1].str(), b = match[2].str(), tolerance = match[4].str();
  return Reworded{"expected " + a + " within " + value(lines[3], tolerance) + " of " + b + ", got " + value(lines[1], a) +
                      " against " + value(lines[2], b) + " (a difference of " + match[3].str() + ")",
                  4};
}

}  // namespace

std::string PlainFailure(const std::string &gtest_text) {
  const std::vector<std::string> lines = Lines(gtest_text);
  if (lines.empty()) return gtest_text;
  if (lines[0] == "Failed") return Joined(lines, 1);  // FAIL() / ADD_FAILURE(): the message is all
  std::optional<Reworded> reworded = FromValueOf(lines);
  if (!reworded) reworded = FromEquality(lines);
  if (!reworded) reworded = FromComparison(lines);
  if (!reworded) reworded = FromNear(lines);
  if (!reworded) return gtest_text;
  // The assertion's own message says what was checked: it leads, the claim follows it.
  std::string first = reworded->claim;
  size_t rest = reworded->message_from;
  if (rest < lines.size() && lines[rest] != "Google Test trace:") first = lines[rest++] + ": " + first;
  const std::string tail = Joined(lines, rest);
  return tail.empty() ? first : first + "\n" + tail;
}

bool NamesClause(const std::string &first_line) {
  static const std::regex clause(R"(\b(RT|OP|CCL)-[A-Z]+-[0-9]+\b)");
  return std::regex_search(first_line, clause);
}

std::string WithClause(const std::string &text, const std::vector<std::string> &clauses) {
  const std::string first_line = text.substr(0, text.find('\n'));
  if (clauses.empty() || NamesClause(first_line)) return text;
  std::string prefix;
  for (const std::string &clause : clauses) prefix += (prefix.empty() ? "" : ", ") + clause;
  return prefix + ": " + text;
}

}  // namespace infinicts::cts
