#include "report/report_from_json.h"

#include <cstdint>
#include <stdexcept>

namespace infinicts::report {
namespace {

using nlohmann::json;

std::vector<std::string> Strings(const json &object, const char *key) {
  return object.contains(key) ? object.at(key).get<std::vector<std::string>>() : std::vector<std::string>{};
}

ExpectationsOutcome ExpectationsFromJson(const json &outcome) {
  ExpectationsOutcome read;
  read.file = outcome.at("file").get<std::string>();
  read.xfail = Strings(outcome, "xfail");
  read.unexpected_pass = Strings(outcome, "unexpected_pass");
  read.skipped = Strings(outcome, "skipped");
  for (const json &flaky : outcome.value("flaky", json::array())) {
    const auto status = ParseStatus(flaky.at("status").get<std::string>());
    if (!status) throw std::invalid_argument("unknown status in expectations.flaky");
    read.flaky.push_back({flaky.at("id").get<std::string>(), flaky.at("attempts").get<int>(), *status});
  }
  return read;
}

Roofline RooflineFromJson(const json &roofline) {
  Roofline read;
  read.device = roofline.at("device").get<std::string>();
  for (const json &peak : roofline.at("peaks")) {
    read.peaks.push_back({peak.at("name").get<std::string>(), peak.at("value").get<double>(),
                          peak.at("unit").get<std::string>(), peak.at("source").get<std::string>(),
                          peak.value("case_id", ""), peak.value("part", "")});
  }
  return read;
}

}  // namespace

HostInfo HostFromJson(const json &host) {
  HostInfo info;
  info.os = host.at("os").get<std::string>();
  info.cpu = host.at("cpu").get<std::string>();
  info.cores = host.at("cores").get<int>();
  info.memory_bytes = host.at("memory_bytes").get<uint64_t>();
  return info;
}

BackendInfo BackendFromJson(const json &backend) {
  BackendInfo info;
  info.libraries = backend.at("libraries").get<std::vector<std::string>>();
  info.device_type = backend.at("device_type").get<std::string>();
  info.device_ids = backend.at("device_ids").get<std::vector<int>>();
  info.device_count = backend.at("device_count").get<int>();
  info.exported = backend.at("exported").get<std::vector<std::string>>();
  info.missing = backend.at("missing").get<std::vector<std::string>>();
  info.missing_libraries = Strings(backend, "missing_libraries");
  return info;
}

RunInfo RunFromJson(const json &run) {
  RunInfo info;
  info.started = run.at("started").get<std::string>();
  info.finished = run.at("finished").get<std::string>();
  info.argv = Strings(run, "argv");
  info.suites = Strings(run, "suites");
  info.modes = Strings(run, "modes");
  info.complete = run.value("complete", false);
  info.narrowed = Strings(run, "narrowed");
  info.failures = Strings(run, "failures");
  if (run.contains("level")) info.level = run.at("level").get<std::string>();
  if (run.contains("shard")) {
    const json &shard = run.at("shard");
    info.shard = ShardInfo{shard.at("index").get<int>(), shard.at("count").get<int>(), shard.at("cases").get<size_t>(),
                           shard.at("selected").get<size_t>(), shard.at("selection").get<std::string>()};
  }
  if (run.contains("ranks")) {
    const json &ranks = run.at("ranks");
    info.ranks = RanksInfo{ranks.at("count").get<int>(), ranks.at("nodes").get<int>(), ranks.at("per_node").get<int>()};
  }
  for (const json &shard : run.value("merged_from", json::array())) {
    MergedShard from;
    from.file = shard.at("file").get<std::string>();
    from.index = shard.at("index").get<int>();
    from.count = shard.at("count").get<int>();
    from.cases = shard.at("cases").get<size_t>();
    from.host = shard.at("host").get<std::string>();
    from.started = shard.at("started").get<std::string>();
    from.finished = shard.at("finished").get<std::string>();
    from.complete = shard.at("complete").get<bool>();
    info.merged_from.push_back(std::move(from));
  }
  return info;
}

bool ReportFromJson(const json &json, Report *report, std::string *error) {
  try {
    report->tool.name = json.at("tool").at("name").get<std::string>();
    report->tool.version = json.at("tool").at("version").get<std::string>();
    report->tool.git = json.at("tool").at("git").get<std::string>();
    report->host = HostFromJson(json.at("host"));
    report->backend = BackendFromJson(json.at("backend"));
    report->run = RunFromJson(json.at("run"));
    if (json.contains("roofline")) report->roofline = RooflineFromJson(json.at("roofline"));
    if (json.contains("expectations")) report->expectations = ExpectationsFromJson(json.at("expectations"));
    for (const nlohmann::json &result : json.at("results")) {
      CaseResult read = CaseResultFromJson(result);
      if (!report->Replace(read)) report->Add(std::move(read));
    }
  } catch (const std::exception &failure) {
    *error = std::string("the report cannot be read: ") + failure.what();
    return false;
  }
  return true;
}

bool RecomputedReport(const json &json, nlohmann::json *recomputed, std::string *error) {
  Report report;
  if (!ReportFromJson(json, &report, error)) return false;
  *recomputed = nlohmann::json::parse(report.Serialize());
  return true;
}

}  // namespace infinicts::report
