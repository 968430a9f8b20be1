#include "render/report_text.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "render/number_format.h"

namespace infinicts::render {

std::string ToolLine(const Json &report) {
  const Json &tool = report["tool"];
  return tool.value("name", "infinicts") + " " + tool.value("version", "") + " (" + tool.value("git", "") + ")";
}

std::string DeviceLine(const Json &report) {
  const Json &backend = report["backend"];
  std::string ids;
  for (const Json &id : backend["device_ids"]) ids += (ids.empty() ? "" : ",") + id.dump();
  return backend.value("device_type", "") + ", devices " + (ids.empty() ? "none" : ids) + " of " +
         std::to_string(backend.value("device_count", 0));
}

std::string HostLine(const Json &report) {
  const Json &host = report["host"];
  return host.value("os", "") + "; " + host.value("cpu", "") + "; " + std::to_string(host.value("cores", 0)) +
         " cores; " + FormatBytes(host.value("memory_bytes", 0.0));
}

std::string RunLine(const Json &report) {
  const Json &run = report["run"];
  const std::string duration = RunDuration(report);
  return run.value("started", "") + " → " + run.value("finished", "") + (duration.empty() ? "" : " (" + duration + ")") +
         (run.value("complete", false) ? ", complete" : ", INCOMPLETE (killed or still running)");
}

std::vector<const Json *> FailedResults(const Json &report) {
  std::vector<const Json *> failed;
  for (const Json &result : report["results"]) {
    if (IsFailureStatus(result.value("status", ""))) failed.push_back(&result);
  }
  std::stable_sort(failed.begin(), failed.end(), [](const Json *a, const Json *b) {
    return StatusSeverity(a->value("status", "")) > StatusSeverity(b->value("status", ""));
  });
  return failed;
}

std::vector<CollapsedResults> CollapsedNonPassing(const Json &report) {
  std::vector<CollapsedResults> groups;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, size_t> index;
  for (const Json &result : report["results"]) {
    const std::string status = result.value("status", "");
    if (status == "pass" || IsFailureStatus(status)) continue;
    const std::string suite = result.value("suite", ""), subject = result.value("subject", "");
    const std::string message = FirstLine(result.value("message", ""));
    const auto key = std::make_tuple(status, suite, subject, message);
    auto found = index.find(key);
    if (found == index.end()) {
      found = index.emplace(key, groups.size()).first;
      groups.push_back({status, suite, subject, message, {}});
    }
    groups[found->second].ids.push_back(result.value("id", ""));
  }
  return groups;
}

}  // namespace infinicts::render
