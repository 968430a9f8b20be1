#include "spec_links.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <sstream>

namespace infinicts::spec {

bool ListSuite(const std::string &binary, std::string *listing) {
  FILE *pipe = popen(("'" + binary + "' --cts-list").c_str(), "r");
  if (pipe == nullptr) return false;
  char buffer[4096];
  for (size_t got; (got = fread(buffer, 1, sizeof buffer, pipe)) > 0;) listing->append(buffer, got);
  return pclose(pipe) == 0;
}

std::vector<CitingCase> ParseCaseList(const std::string &json_lines, std::vector<std::string> *errors) {
  std::vector<CitingCase> cases;
  std::istringstream lines(json_lines);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json.contains("id") || !json["id"].is_string() || !json.contains("clauses") ||
        !json["clauses"].is_array()) {
      errors->push_back("case list line " + std::to_string(number) + " is not a case with an id and clauses");
      continue;
    }
    const auto text = [&json](const char *key) {
      return json.contains(key) && json[key].is_string() ? json[key].get<std::string>() : std::string();
    };
    CitingCase listed{json["id"].get<std::string>(), {}, text("subject"), text("mode")};
    for (const auto &clause : json["clauses"]) {
      if (clause.is_string()) listed.clauses.push_back(clause.get<std::string>());
    }
    cases.push_back(std::move(listed));
  }
  if (cases.empty() && errors->empty()) errors->push_back("the case list is empty");
  return cases;
}

LinkReport CheckLinks(const Spec &spec, const std::vector<CitingCase> &cases) {
  LinkReport report;
  std::map<std::string, int> citations;
  for (const Clause &clause : spec.clauses) citations[clause.id] = 0;
  for (const CitingCase &listed : cases) {
    if (listed.clauses.empty()) report.errors.push_back(listed.id + " cites no clause");
    for (const std::string &id : listed.clauses) {
      auto it = citations.find(id);
      if (it == citations.end()) {
        report.errors.push_back(listed.id + " cites " + id + ", which the spec does not have");
      } else {
        ++it->second;
      }
    }
  }
  for (const Clause &clause : spec.clauses) {
    if (citations[clause.id] > 0) continue;
    const std::string message = clause.id + " (line " + std::to_string(clause.line) + ") is checked by no case";
    (clause.must ? report.errors : report.warnings).push_back(message);
  }
  return report;
}

namespace {

std::string Trimmed(const std::string &text) {
  const size_t first = text.find_first_not_of(' '), last = text.find_last_not_of(' ');
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

}  // namespace

std::vector<std::vector<std::string>> TableRows(const std::string &text, const std::string &header_prefix) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line) && line.rfind(header_prefix, 0) != 0) {
  }
  while (std::getline(lines, line) && !line.empty() && line[0] == '|') {
    if (line.rfind("|---", 0) == 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {  // past the leading '|'
      if (line[i] == '|' && line[i - 1] != '\\') {
        cells.push_back(Trimmed(cell));
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

std::vector<std::string> ListedNames(const std::string &cell) {
  std::vector<std::string> names;
  std::stringstream items(cell);
  for (std::string item; std::getline(items, item, ',');) {
    if (!Trimmed(item).empty()) names.push_back(Trimmed(item));
  }
  return names;
}

}  // namespace infinicts::spec
