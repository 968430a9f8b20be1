#include "report/root_causes.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace infinicts::report {
namespace {

const std::regex &ClausePattern() {
  static const std::regex clause(R"(\b(RT|OP|CCL)-[A-Z]+-[0-9]+\b)");
  return clause;
}

std::string FirstLineOf(const std::string &text) { return text.substr(0, text.find('\n')); }

// Digits (and a hex number's letters, a sign) become one '#'.
std::string WithoutNumbers(const std::string &text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      const bool sign = text[i] == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                        (i == 0 || text[i - 1] == ' ' || text[i - 1] == '(' || text[i - 1] == '[');
      if (!sign) out += text[i];
      ++i;
      continue;
    }
    const bool hex = text.compare(i, 2, "0x") == 0;
    i += hex ? 2 : 0;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                               (hex && std::isxdigit(static_cast<unsigned char>(text[i]))) || text[i] == '.')) {
      ++i;
    }
    out += '#';
  }
  return out;
}

}  // namespace

// A bracketed list of numbers (a shape, strides) becomes "[…]": one root cause shows on
// tensors of any rank.
std::string WithoutNumberLists(const std::string &text) {
  static const std::regex list(R"(\[[-0-9., ]*\])");
  return std::regex_replace(text, list, "[…]");
}

// Items of a list that repeat one after another (", "- or "; "-separated) kept once: a list
// of the first mismatches has one shape however many it shows.
std::string WithoutRepeats(const std::string &text, const std::string &separator) {
  std::string out, previous;
  size_t at = 0;
  bool first = true;
  while (true) {
    const size_t next = text.find(separator, at);
    const std::string item = text.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (first || item != previous) out += (first ? "" : separator) + item;
    previous = item;
    first = false;
    if (next == std::string::npos) break;
    at = next + separator.size();
  }
  return out;
}

std::string MessageShape(const std::string &line) {
  const std::string first_line = WithoutNumberLists(line);
  std::string shape;
  auto at = first_line.cbegin();
  for (std::sregex_iterator it(first_line.begin(), first_line.end(), ClausePattern()), end; it != end; ++it) {
    shape += WithoutNumbers(std::string(at, (*it)[0].first)) + (*it)[0].str();
    at = (*it)[0].second;
  }
  shape += WithoutNumbers(std::string(at, first_line.cend()));
  return WithoutRepeats(WithoutRepeats(shape, ", "), "; ");
}

std::string FirstClauseIn(const std::string &line) {
  std::smatch match;
  return std::regex_search(line, match, ClausePattern()) ? match[0].str() : "";
}

void RootCauses::Add(const CaseResult &result) {
  if (!IsFailure(result.status)) return;
  const std::string first_line = FirstLineOf(result.message);
  const std::string key = std::string(StatusName(result.status)) + "\n" + MessageShape(first_line);
  auto found = index_.find(key);
  if (found == index_.end()) {
    found = index_.emplace(key, groups_.size()).first;
    groups_.push_back(RootCauseGroup{result.status, FirstClauseIn(first_line), first_line, 0, {}});
  }
  RootCauseGroup &group = groups_[found->second];
  ++group.count;
  if (group.examples.size() < kRootCauseExamples) group.examples.push_back(result.id);
}

std::vector<RootCauseGroup> RootCauses::Groups() const {
  std::vector<RootCauseGroup> sorted = groups_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const RootCauseGroup &a, const RootCauseGroup &b) { return a.count > b.count; });
  return sorted;
}

std::string DescribeGroup(const RootCauseGroup &group, size_t width) {
  std::string message = group.message.empty() ? "(no message)" : group.message;
  if (message.size() > width) message = message.substr(0, width) + "…";
  std::string examples;
  for (const std::string &id : group.examples) examples += (examples.empty() ? "" : ", ") + id;
  if (group.count > static_cast<int>(group.examples.size())) examples += ", …";
  return std::to_string(group.count) + " " + StatusName(group.status) + ": " + message + " (" +
         (group.count == 1 ? "" : "e.g. ") + examples + ")";
}

}  // namespace infinicts::report
