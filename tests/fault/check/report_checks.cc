#include "check/report_checks.h"

#include <algorithm>

#include <fnmatch.h>

#include <functional>
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

bool MatchesAny(const std::vector<std::string> &globs, const std::string &id) {
  for (const std::string &glob : globs) {
    if (fnmatch(glob.c_str(), id.c_str(), 0) == 0) return true;
  }
  return false;
}

std::string FirstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

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

namespace {

// Each glob matches at least one case, and every case it matches ended as `wanted` says
// (`what` describes it: "catch the fault", "end blocked").
std::vector<std::string> CheckMatchedResults(const nlohmann::json &report, const std::vector<std::string> &globs,
                                             const std::function<bool(const nlohmann::json &)> &wanted,
                                             const std::string &what) {
  std::vector<std::string> problems;
  for (const std::string &glob : globs) {
    int matched = 0;
    for (const auto &result : Results(report)) {
      const std::string id = result.value("id", std::string());
      if (fnmatch(glob.c_str(), id.c_str(), 0) != 0) continue;
      ++matched;
      if (!wanted(result)) {
        const bool valid_crash = StatusOf(result) == "crash" && !result.value("crash_on_invalid_input", false);
        problems.push_back("expected to " + what + " but ended " + StatusOf(result) + (valid_crash ? " on valid input" : "") +
                           ": " + id + ": " + FirstLine(result.value("message", std::string())));
      }
    }
    if (matched == 0) problems.push_back("no case matches the glob " + glob);
  }
  return problems;
}

std::vector<std::string> CheckMatchedEnded(const nlohmann::json &report, const std::vector<std::string> &globs,
                                           const std::function<bool(const std::string &)> &wanted,
                                           const std::string &what) {
  return CheckMatchedResults(report, globs, [&](const nlohmann::json &result) { return wanted(StatusOf(result)); }, what);
}

}  // namespace

std::vector<std::string> CheckCaught(const nlohmann::json &report, const std::vector<std::string> &globs) {
  if (globs.empty()) return {"no expected case given"};
  return CheckMatchedEnded(report, globs, IsCaught, "catch the fault");
}

std::vector<std::string> CheckEndedAs(const nlohmann::json &report, const std::vector<std::string> &globs,
                                      const std::string &status) {
  return CheckMatchedEnded(report, globs, [&](const std::string &got) { return got == status; }, "end " + status);
}

std::vector<std::string> CheckCrashedOnInvalidInput(const nlohmann::json &report, const std::vector<std::string> &globs) {
  return CheckMatchedResults(
      report, globs,
      [](const nlohmann::json &result) {
        return StatusOf(result) == "crash" && result.value("crash_on_invalid_input", false);
      },
      "crash on invalid input");
}

std::vector<std::string> CheckOthersPass(const nlohmann::json &report, const std::vector<std::string> &globs,
                                         bool rank_skips_pass) {
  std::vector<std::string> problems;
  for (const auto &result : Results(report)) {
    const std::string id = result.value("id", std::string());
    if (StatusOf(result) == "pass" || MatchesAny(globs, id)) continue;
    if (rank_skips_pass && SkippedForWantOfRanks(result)) continue;
    problems.push_back(StatusOf(result) + " beyond the cases named: " + id + ": " +
                       FirstLine(result.value("message", std::string())));
  }
  return problems;
}

std::vector<std::string> CheckMessages(const nlohmann::json &report, const std::vector<std::string> &globs,
                                       const std::vector<std::string> &has, const std::vector<std::string> &lacks) {
  std::vector<std::string> problems;
  for (const auto &result : Results(report)) {
    const std::string id = result.value("id", std::string());
    if (!MatchesAny(globs, id) || StatusOf(result) == "pass") continue;
    const std::string message = result.value("message", std::string());
    for (const std::string &text : has) {
      if (message.find(text) == std::string::npos) problems.push_back(id + ": the message lacks '" + text + "': " + message);
    }
    for (const std::string &text : lacks) {
      if (message.find(text) != std::string::npos) problems.push_back(id + ": the message holds '" + text + "': " + message);
    }
  }
  return problems;
}

std::vector<std::string> CheckRunFailure(const nlohmann::json &report, const std::string &text) {
  const nlohmann::json run = report.value("run", nlohmann::json::object());
  std::vector<std::string> problems;
  if (!run.value("complete", false)) problems.push_back("run.complete is not true");
  const nlohmann::json failures = run.value("failures", nlohmann::json::array());
  bool found = false;
  for (const auto &failure : failures) found = found || (failure.is_string() && failure.get<std::string>().find(text) != std::string::npos);
  if (!found) problems.push_back("no run failure holds '" + text + "': " + failures.dump());
  return problems;
}

std::vector<std::string> CheckRootCauses(const nlohmann::json &report, int expected) {
  const nlohmann::json causes = report.value("summary", nlohmann::json::object()).value("root_causes", nlohmann::json::array());
  if (static_cast<int>(causes.size()) == expected) return {};
  std::vector<std::string> problems = {"expected " + std::to_string(expected) + " root cause(s), the report has " +
                                       std::to_string(causes.size())};
  for (const auto &cause : causes) {
    problems.push_back(std::to_string(cause.value("count", 0)) + " " + cause.value("status", std::string()) + ": " +
                       cause.value("message", std::string()));
  }
  return problems;
}

std::vector<std::string> CheckPartVerdicts(const nlohmann::json &report, const std::vector<std::string> &expected) {
  const nlohmann::json parts = report.value("summary", nlohmann::json::object()).value("parts", nlohmann::json::array());
  std::vector<std::string> problems;
  for (const std::string &pair : expected) {
    const size_t equals = pair.find('=');
    const std::string part = pair.substr(0, equals);
    const std::string verdict = equals == std::string::npos ? std::string() : pair.substr(equals + 1);
    const auto found = std::find_if(parts.begin(), parts.end(), [&](const nlohmann::json &entry) {
      return entry.value("part", std::string()) == part;
    });
    if (found == parts.end()) {
      problems.push_back("the report has no part " + part);
    } else if (found->value("verdict", std::string()) != verdict) {
      problems.push_back("part " + part + " is " + found->value("verdict", std::string()) + ", not " + verdict);
    }
  }
  return problems;
}

std::vector<std::string> CheckMissingCapabilities(const nlohmann::json &report,
                                                  const std::vector<std::string> &capabilities) {
  const nlohmann::json missing =
      report.value("summary", nlohmann::json::object()).value("missing_capabilities", nlohmann::json::array());
  std::vector<std::string> problems;
  for (const std::string &capability : capabilities) {
    const bool listed = std::any_of(missing.begin(), missing.end(), [&](const nlohmann::json &entry) {
      return entry.value("capability", std::string()) == capability;
    });
    if (!listed) problems.push_back("summary.missing_capabilities does not list " + capability);
  }
  return problems;
}

bool SkippedForWantOfRanks(const nlohmann::json &result) {
  return StatusOf(result) == "skip" &&
         result.value("message", std::string()).find(" ranks (one per process); the run has ") != std::string::npos;
}

std::vector<std::string> CheckAllPass(const nlohmann::json &report, bool rank_skips_pass) {
  std::vector<std::string> problems;
  if (Results(report).empty()) problems.push_back("the report has no result");
  for (const auto &result : Results(report)) {
    if (StatusOf(result) != "pass" && !(rank_skips_pass && SkippedForWantOfRanks(result))) {
      problems.push_back(StatusOf(result) + ": " + result.value("id", std::string()) + ": " +
                         result.value("message", std::string()));
    }
  }
  return problems;
}

}  // namespace infinicts::fault::check
