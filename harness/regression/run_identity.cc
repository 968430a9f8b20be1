#include "regression/run_identity.h"

namespace infinicts::regression {
namespace {

constexpr const char *kDefaultProfile = "quick";

// A JSON value as one short line: strings without quotes, arrays comma-separated.
std::string Shown(const nlohmann::json &value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string text;
    for (const nlohmann::json &item : value) text += (text.empty() ? "" : ", ") + Shown(item);
    return "[" + text + "]";
  }
  return value.dump();
}

void WarnIfDifferent(const std::string &what, const nlohmann::json &base, const nlohmann::json &next,
                     std::vector<std::string> *warnings) {
  if (base == next) return;
  warnings->push_back(what + " differ: baseline " + Shown(base) + ", new " + Shown(next));
}

const nlohmann::json &Field(const nlohmann::json &report, const char *object, const char *key) {
  static const nlohmann::json kAbsent;
  const auto parent = report.find(object);
  if (parent == report.end() || !parent->is_object()) return kAbsent;
  const auto found = parent->find(key);
  return found == parent->end() ? kAbsent : *found;
}

}  // namespace

std::string ProfileOf(const nlohmann::json &report) {
  const nlohmann::json &argv = Field(report, "run", "argv");
  if (!argv.is_array()) return kDefaultProfile;
  std::string profile = kDefaultProfile;
  const std::string option = "--profile";
  for (size_t i = 0; i < argv.size(); ++i) {
    if (!argv[i].is_string()) continue;
    const std::string arg = argv[i].get<std::string>();
    if (arg == option && i + 1 < argv.size() && argv[i + 1].is_string()) profile = argv[i + 1].get<std::string>();
    else if (arg.rfind(option + "=", 0) == 0) profile = arg.substr(option.size() + 1);
  }
  return profile;
}

std::vector<std::string> LikeForLikeWarnings(const nlohmann::json &base, const nlohmann::json &next) {
  std::vector<std::string> warnings;
  // A different tool may judge or time the same backend differently: named first.
  WarnIfDifferent("infinicts versions", Field(base, "tool", "version"), Field(next, "tool", "version"), &warnings);
  WarnIfDifferent("infinicts builds (git)", Field(base, "tool", "git"), Field(next, "tool", "git"), &warnings);
  for (const char *key : {"os", "cpu", "cores", "memory_bytes"})
    WarnIfDifferent(std::string("hosts' ") + key, Field(base, "host", key), Field(next, "host", key), &warnings);
  WarnIfDifferent("backend libraries", Field(base, "backend", "libraries"), Field(next, "backend", "libraries"),
                  &warnings);
  // Another build of the backend shows where the functions it exports differ.
  const nlohmann::json &base_exported = Field(base, "backend", "exported");
  const nlohmann::json &next_exported = Field(next, "backend", "exported");
  if (base_exported != next_exported && base_exported.is_array() && next_exported.is_array()) {
    warnings.push_back("backend builds differ: the baseline exports " + std::to_string(base_exported.size()) +
                       " functions, the new " + std::to_string(next_exported.size()) + ", not the same ones");
  }
  WarnIfDifferent("device types", Field(base, "backend", "device_type"), Field(next, "backend", "device_type"),
                  &warnings);
  WarnIfDifferent("device ids", Field(base, "backend", "device_ids"), Field(next, "backend", "device_ids"),
                  &warnings);
  WarnIfDifferent("perf profiles", ProfileOf(base), ProfileOf(next), &warnings);
  return warnings;
}

RunSummary SummarizeRun(const std::string &path, const nlohmann::json &report) {
  RunSummary summary;
  summary.path = path;
  const nlohmann::json &git = Field(report, "tool", "git");
  const nlohmann::json &started = Field(report, "run", "started");
  const nlohmann::json &device_type = Field(report, "backend", "device_type");
  const nlohmann::json &complete = Field(report, "run", "complete");
  summary.tool_git = git.is_string() ? git.get<std::string>() : "";
  summary.started = started.is_string() ? started.get<std::string>() : "";
  summary.device_type = device_type.is_string() ? device_type.get<std::string>() : "";
  summary.complete = !complete.is_boolean() || complete.get<bool>();
  const auto results = report.find("results");
  summary.results = results != report.end() && results->is_array() ? results->size() : 0;
  return summary;
}

}  // namespace infinicts::regression
