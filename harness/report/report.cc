#include "report/report.h"

#include <algorithm>

namespace infinicts::report {
namespace {

using Json = nlohmann::ordered_json;

std::string Dump(const Json &json) {
  // Messages carry whatever a backend printed: never let invalid UTF-8 stop the report.
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json LevelReasons(const LevelOutcome &outcome) { return Json(outcome.reasons); }

Json ToJson(const ExpectationsOutcome &outcome) {
  Json flaky = Json::array();
  for (const ExpectationsOutcome::Flaky &entry : outcome.flaky) {
    flaky.push_back(Json{{"id", entry.id}, {"attempts", entry.attempts}, {"status", StatusName(entry.status)}});
  }
  return Json{{"file", outcome.file},   {"xfail", outcome.xfail},     {"unexpected_pass", outcome.unexpected_pass},
              {"flaky", std::move(flaky)}, {"skipped", outcome.skipped}};
}

Json ToJson(const RootCauseGroup &group) {
  Json json{{"status", StatusName(group.status)}, {"clause", group.clause},     {"message", group.message},
            {"count", group.count},               {"examples", group.examples}, {"subjects", group.subjects}};
  if (!group.trigger.empty()) json["trigger"] = group.trigger;
  if (!group.rerun.empty()) json["rerun"] = group.rerun;
  return json;
}

Json ToJson(const PartVerdict &part) {
  Json counts = Json::object();
  for (Status status : kAllStatuses) {
    if (part.counts[status] > 0) counts[StatusName(status)] = part.counts[status];
  }
  Json json{{"part", part.part}, {"level", part.level}, {"verdict", part.verdict}, {"total", part.counts.total},
             {"counts", std::move(counts)}};
  if (!part.needs.empty()) {
    json["skipped_for_capacity"] = part.skipped_for_capacity;
    json["needs"] = part.needs;
  }
  return json;
}

}  // namespace

LevelOutcomes Report::levels() const {
  RunScope scope;
  scope.complete = run.complete;
  scope.narrowed = run.narrowed;
  scope.minimal_only = run.level == std::optional<std::string>("minimal");
  scope.conformance_modes = std::any_of(run.modes.begin(), run.modes.end(),
                                        [](const std::string &mode) { return mode != "perf"; });
  return levels_.Evaluate(scope);
}

void Report::Tally(const CaseResult &result) {
  counts_.Add(result.status);
  if (result.status == Status::kCrash && result.crash_on_invalid_input) ++crashes_on_invalid_input_;
  levels_.Add(result);
  root_causes_.Add(result);
}

void Report::Add(CaseResult result) {
  result_texts_.push_back(Dump(ToJson(result)));
  result_bytes_ += result_texts_.back().size();
  Tally(result);
  index_by_id_.emplace(result.id, results_.size());
  results_.push_back(std::move(result));
}

bool Report::Replace(CaseResult result) {
  const auto found = index_by_id_.find(result.id);
  if (found == index_by_id_.end()) return false;
  const size_t index = found->second;
  result_bytes_ -= result_texts_[index].size();
  result_texts_[index] = Dump(ToJson(result));
  result_bytes_ += result_texts_[index].size();
  results_[index] = std::move(result);
  // Rare (a crash charged to an earlier case): the tallies are made again from every result.
  counts_ = StatusCounts();
  crashes_on_invalid_input_ = 0;
  levels_ = LevelTally();
  root_causes_ = RootCauses();
  for (const CaseResult &each : results_) Tally(each);
  return true;
}

void Report::MergeMetrics(size_t index, const nlohmann::json &metrics) {
  CaseResult &result = results_.at(index);
  if (!result.metrics.is_object()) result.metrics = nlohmann::json::object();
  for (auto it = metrics.begin(); it != metrics.end(); ++it) result.metrics[it.key()] = it.value();
  result_bytes_ -= result_texts_[index].size();
  result_texts_[index] = Dump(ToJson(result));
  result_bytes_ += result_texts_[index].size();
}

void Report::SetRoofline(Roofline new_roofline) {
  for (size_t i = 0; i < results_.size(); ++i) {
    nlohmann::json metrics = RooflineMetrics(results_[i], new_roofline.peaks, "measured");
    metrics.update(RooflineMetrics(results_[i], new_roofline.peaks, "spec_sheet"));
    if (!metrics.empty()) MergeMetrics(i, metrics);
  }
  roofline = std::move(new_roofline);
}

std::string Report::Serialize() const {
  Json tool_json{{"name", tool.name}, {"version", tool.version}, {"git", tool.git}};
  Json host_json{{"os", host.os}, {"cpu", host.cpu}, {"cores", host.cores}, {"memory_bytes", host.memory_bytes}};
  Json backend_json{{"libraries", backend.libraries}, {"device_type", backend.device_type},
                    {"device_ids", backend.device_ids}, {"device_count", backend.device_count},
                    {"exported", backend.exported},   {"missing", backend.missing}};
  if (!backend.missing_libraries.empty()) backend_json["missing_libraries"] = backend.missing_libraries;
  Json run_json{{"started", run.started}, {"finished", run.finished}, {"argv", run.argv},
                {"suites", run.suites},   {"modes", run.modes},       {"complete", run.complete},
                {"narrowed", run.narrowed}, {"failures", run.failures}};
  if (run.level) run_json["level"] = *run.level;
  if (run.shard) {
    run_json["shard"] = Json{{"index", run.shard->index}, {"count", run.shard->count}, {"cases", run.shard->cases},
                             {"selected", run.shard->selected}, {"selection", run.shard->selection}};
  }
  if (run.ranks) {
    run_json["ranks"] = Json{{"count", run.ranks->count}, {"nodes", run.ranks->nodes}, {"per_node", run.ranks->per_node}};
  }
  if (run.against) {
    run_json["against"] = Json{{"backends", run.against->backends}, {"report", run.against->report},
                               {"cases", run.against->cases}, {"exit_code", run.against->exit_code}};
  }
  if (!run.merged_from.empty()) {
    Json merged = Json::array();
    for (const MergedShard &shard : run.merged_from) {
      merged.push_back(Json{{"file", shard.file},       {"index", shard.index},         {"count", shard.count},
                            {"cases", shard.cases},     {"host", shard.host},           {"started", shard.started},
                            {"finished", shard.finished}, {"complete", shard.complete}});
    }
    run_json["merged_from"] = std::move(merged);
  }
  const LevelOutcomes outcomes = levels();
  Json summary_json;
  summary_json["total"] = counts_.total;
  for (Status status : kAllStatuses) {
    summary_json[StatusName(status)] = counts_[status];
    if (status == Status::kCrash) summary_json["crash_on_invalid_input"] = crashes_on_invalid_input_;
  }
  summary_json["levels"] = Json{{"minimal", outcomes.minimal.reached}, {"advanced", outcomes.advanced.reached}};
  summary_json["levels_detail"] =
      Json{{"minimal", LevelReasons(outcomes.minimal)}, {"advanced", LevelReasons(outcomes.advanced)}};
  summary_json["level_verdicts"] = Json{{"minimal", outcomes.minimal.Verdict()}, {"advanced", outcomes.advanced.Verdict()}};
  summary_json["judged_on_devices"] = backend.device_ids.size();
  Json parts_json = Json::array();
  for (const PartVerdict &part : parts()) parts_json.push_back(ToJson(part));
  summary_json["parts"] = std::move(parts_json);
  Json causes_json = Json::array();
  for (const RootCauseGroup &group : root_causes()) causes_json.push_back(ToJson(group));
  summary_json["root_causes"] = std::move(causes_json);
  Json missing_json = Json::array();
  for (const MissingCapability &missing : levels_.MissingCapabilities()) {
    missing_json.push_back(Json{{"part", missing.part}, {"capability", missing.capability}, {"cases", missing.cases},
                                {"first", missing.first}});
  }
  summary_json["missing_capabilities"] = std::move(missing_json);

  std::string text;
  text.reserve(result_bytes_ + result_texts_.size() * 8 + 4096);
  text += "{\n  \"schema_version\": " + std::to_string(kSchemaVersion) + ",\n";
  text += "  \"tool\": " + Dump(tool_json) + ",\n";
  text += "  \"host\": " + Dump(host_json) + ",\n";
  text += "  \"backend\": " + Dump(backend_json) + ",\n";
  text += "  \"run\": " + Dump(run_json) + ",\n";
  text += "  \"summary\": " + Dump(summary_json) + ",\n";
  if (roofline) text += "  \"roofline\": " + Dump(ToJson(*roofline)) + ",\n";
  if (expectations) text += "  \"expectations\": " + Dump(ToJson(*expectations)) + ",\n";
  text += "  \"results\": [";
  for (size_t i = 0; i < result_texts_.size(); ++i) {
    text += i == 0 ? "\n    " : ",\n    ";
    text += result_texts_[i];
  }
  text += result_texts_.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return text;
}

}  // namespace infinicts::report
