#include "check/report_checks.h"

#include <fnmatch.h>

#include <map>
#include <set>
#include <sstream>

namespace infinicts::fault::check {
namespace {

bool IsCaught(const std::string &status) {
  return status == "fail" || status == "crash" || status == "timeout";
}

const nlohmann::json &Results(const nlohmann::json &report) {
  static const nlohmann::json none = nlohmann::json::array();
  const auto found = report.find("results");
  return found != report.end() && found->is_array() ? *found : none;
}

std::string StatusOf(const nlohmann::json &result) { return result.value("status", std::string("<none>")); }

}  // namespace

std::vector<std::string> ParseListedIds(const std::string &list_output, const std::string &suite) {
  std::vector<std::string> ids;
  std::istringstream lines(list_output);
  std::string line;
  const std::string prefix = suite + ".";
  while (std::getline(lines, line)) {
    const auto begin = line.find_first_not_of(" \t");
    if (begin == std::string::npos) continue;
    std::string id;
    if (line[begin] == '{') {
      const auto object = nlohmann::json::parse(line.substr(begin), nullptr, false);
      if (object.is_object()) id = object.value("id", std::string());
    } else {
      std::istringstream words(line.substr(begin));
      words >> id;
    }
    if (id.compare(0, prefix.size(), prefix) == 0) ids.push_back(id);
  }
  return ids;
}

std::vector<std::string> CheckComplete(const nlohmann::json &report, const std::vector<std::string> &listed_ids) {
  std::vector<std::string> problems;
  if (listed_ids.empty()) problems.push_back("`infinicts list` listed no case");

  std::map<std::string, int> reported;
  for (const auto &result : Results(report)) reported[result.value("id", std::string())]++;
  const std::set<std::string> listed(listed_ids.begin(), listed_ids.end());
  for (const std::string &id : listed) {
    const auto found = reported.find(id);
    if (found == reported.end()) problems.push_back("listed case missing from the report: " + id);
    else if (found->second != 1) problems.push_back("case reported " + std::to_string(found->second) + " times: " + id);
  }
  for (const auto &[id, count] : reported) {
    if (listed.count(id) == 0) problems.push_back("reported case that was not listed: " + id);
  }

  const auto summary = report.value("summary", nlohmann::json::object());
  const long long total = summary.value("total", -1LL);
  if (total != static_cast<long long>(listed_ids.size())) {
    problems.push_back("summary.total is " + std::to_string(total) + ", `infinicts list` listed " +
                       std::to_string(listed_ids.size()));
  }
  return problems;
}

std::vector<std::string> CheckCaught(const nlohmann::json &report, const std::vector<std::string> &globs) {
  std::vector<std::string> problems;
  if (globs.empty()) problems.push_back("no expected case given");
  for (const std::string &glob : globs) {
    int matched = 0;
    for (const auto &result : Results(report)) {
      const std::string id = result.value("id", std::string());
      if (fnmatch(glob.c_str(), id.c_str(), 0) != 0) continue;
      ++matched;
      if (!IsCaught(StatusOf(result))) {
        problems.push_back("expected to catch the fault but ended " + StatusOf(result) + ": " + id);
      }
    }
    if (matched == 0) problems.push_back("no case matches the expected glob " + glob);
  }
  return problems;
}

std::vector<std::string> CheckAllPass(const nlohmann::json &report) {
  std::vector<std::string> problems;
  if (Results(report).empty()) problems.push_back("the report has no result");
  for (const auto &result : Results(report)) {
    if (StatusOf(result) != "pass") {
      problems.push_back(StatusOf(result) + ": " + result.value("id", std::string()) + ": " +
                         result.value("message", std::string()));
    }
  }
  return problems;
}

}  // namespace infinicts::fault::check
