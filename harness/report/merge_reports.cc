#include "report/merge_reports.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>

#include "report/report_from_json.h"

namespace infinicts::report {
namespace {

using nlohmann::json;

std::string ShardName(const json &shard) {
  return std::to_string(shard.at("index").get<int>()) + "/" + std::to_string(shard.at("count").get<int>());
}

std::string Basename(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> Basenames(const json &paths) {
  std::vector<std::string> names;
  for (const json &path : paths) names.push_back(Basename(path.get<std::string>()));
  return names;
}

std::string Text(const json &value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

// The first way `other` is not a shard of the same run as `first`, or "".
std::string Difference(const ShardReport &first, const ShardReport &other) {
  const json &a = first.json, &b = other.json;
  const std::string pair = first.file + " and " + other.file;
  if (a["tool"]["version"] != b["tool"]["version"] || a["tool"]["git"] != b["tool"]["git"]) {
    return pair + " come from different builds (infinicts " + Text(a["tool"]["version"]) + " " +
           Text(a["tool"]["git"]) + ", infinicts " + Text(b["tool"]["version"]) + " " + Text(b["tool"]["git"]) + ")";
  }
  if (a["backend"]["device_type"] != b["backend"]["device_type"]) {
    return pair + " come from different device types (" + Text(a["backend"]["device_type"]) + ", " +
           Text(b["backend"]["device_type"]) + ")";
  }
  if (Basenames(a["backend"]["libraries"]) != Basenames(b["backend"]["libraries"]) ||
      a["backend"]["exported"] != b["backend"]["exported"] || a["backend"]["missing"] != b["backend"]["missing"]) {
    return pair + " come from different backends (their libraries or exported functions differ)";
  }
  if (a["backend"]["device_ids"] != b["backend"]["device_ids"]) {
    return pair + " ran on different devices (device ids " + a["backend"]["device_ids"].dump() + ", " +
           b["backend"]["device_ids"].dump() + ")";
  }
  const json &sa = a["run"]["shard"], &sb = b["run"]["shard"];
  if (sa["count"] != sb["count"] || sa["selected"] != sb["selected"] || sa["selection"] != sb["selection"] ||
      a["run"]["modes"] != b["run"]["modes"] || a["run"].value("level", "") != b["run"].value("level", "")) {
    return pair + " are shards of different selections (shard " + ShardName(sa) + " of " + Text(sa["selected"]) +
           " cases, digest " + Text(sa["selection"]) + "; shard " + ShardName(sb) + " of " + Text(sb["selected"]) +
           " cases, digest " + Text(sb["selection"]) + ")";
  }
  const std::string expect_a = a.contains("expectations") ? a["expectations"]["file"].get<std::string>() : "";
  const std::string expect_b = b.contains("expectations") ? b["expectations"]["file"].get<std::string>() : "";
  if (expect_a != expect_b) return pair + " were run with different --expect files";
  return "";
}

std::vector<std::string> Strings(const json &object, const char *key) {
  return object.contains(key) ? object.at(key).get<std::vector<std::string>>() : std::vector<std::string>{};
}

// Adds one shard's --expect outcome to the joined one.
void AddExpectations(const json &outcome, ExpectationsOutcome *joined) {
  joined->file = outcome.at("file").get<std::string>();
  for (const auto &[key, list] : {std::pair{"xfail", &joined->xfail}, std::pair{"unexpected_pass", &joined->unexpected_pass},
                                  std::pair{"skipped", &joined->skipped}}) {
    const std::vector<std::string> ids = Strings(outcome, key);
    list->insert(list->end(), ids.begin(), ids.end());
  }
  for (const json &flaky : outcome.at("flaky")) {
    const auto status = ParseStatus(flaky.at("status").get<std::string>());
    if (!status) throw std::invalid_argument("unknown status in expectations.flaky");
    joined->flaky.push_back({flaky.at("id").get<std::string>(), flaky.at("attempts").get<int>(), *status});
  }
}

}  // namespace

std::vector<std::string> MissingShards(const std::vector<ShardReport> &shards) {
  std::vector<std::string> missing;
  if (shards.empty() || !shards.front().json["run"].contains("shard")) return missing;
  const int count = shards.front().json["run"]["shard"]["count"].get<int>();
  std::vector<bool> present(static_cast<size_t>(count) + 1, false);
  for (const ShardReport &shard : shards) {
    const int index = shard.json["run"]["shard"]["index"].get<int>();
    if (index >= 1 && index <= count) present[static_cast<size_t>(index)] = true;
  }
  for (int index = 1; index <= count; ++index) {
    if (!present[static_cast<size_t>(index)]) missing.push_back(std::to_string(index) + "/" + std::to_string(count));
  }
  return missing;
}

bool MergeShardReports(const std::vector<ShardReport> &shards, const std::vector<std::string> &argv, Report *merged,
                       std::string *error) {
  if (shards.empty()) {
    *error = "no report to merge";
    return false;
  }
  for (const ShardReport &shard : shards) {
    if (!shard.json["run"].contains("shard")) {
      *error = shard.file + " was not run with --shard K/N; merge joins the reports of the shards of one run";
      return false;
    }
  }
  const ShardReport &first = shards.front();
  std::map<int, const ShardReport *> by_index;
  for (const ShardReport &shard : shards) {
    if (const std::string difference = Difference(first, shard); !difference.empty()) {
      *error = difference;
      return false;
    }
    const int index = shard.json["run"]["shard"]["index"].get<int>();
    if (auto [at, inserted] = by_index.emplace(index, &shard); !inserted) {
      *error = at->second->file + " and " + shard.file + " both hold shard " + ShardName(shard.json["run"]["shard"]);
      return false;
    }
  }

  // The cases, each from exactly one report, in the order one run would have given them:
  // by their place in the selection (by suite where a report lacks it).
  const json &first_run = first.json["run"];
  const std::vector<std::string> suites = first_run["suites"].get<std::vector<std::string>>();
  std::map<std::string, const std::string *> file_of_id;
  std::vector<std::pair<std::pair<size_t, size_t>, CaseResult>> results;
  try {
    for (const auto &[index, shard] : by_index) {
      for (const json &result_json : shard->json["results"]) {
        CaseResult result = CaseResultFromJson(result_json);
        if (auto [at, inserted] = file_of_id.emplace(result.id, &shard->file); !inserted) {
          *error = *at->second + " and " + shard->file + " overlap: both hold " + result.id;
          return false;
        }
        const size_t suite_order = std::find(suites.begin(), suites.end(), result.suite) - suites.begin();
        const size_t place = result.selection_index.value_or(SIZE_MAX);
        result.selection_index.reset();  // one run's report holds no shard's places
        results.emplace_back(std::pair{suite_order, place}, std::move(result));
      }
    }
  } catch (const std::exception &failure) {
    *error = std::string("a result cannot be read: ") + failure.what();
    return false;
  }
  std::stable_sort(results.begin(), results.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });

  Report &report = *merged;
  const json &selection = first_run["shard"];
  const int count = selection["count"].get<int>();
  const size_t selected = selection["selected"].get<size_t>();
  try {
    report.tool.name = first.json["tool"]["name"].get<std::string>();
    report.tool.version = first.json["tool"]["version"].get<std::string>();
    report.tool.git = first.json["tool"]["git"].get<std::string>();
    report.host = HostFromJson(first.json["host"]);
    report.backend = BackendFromJson(first.json["backend"]);
    report.run.argv = argv;
    report.run.suites = suites;
    report.run.modes = first_run["modes"].get<std::vector<std::string>>();
    if (first_run.contains("level")) report.run.level = first_run["level"].get<std::string>();
    report.run.started = first_run["started"].get<std::string>();
    report.run.finished = first_run["finished"].get<std::string>();
    bool every_shard_complete = true;
    for (const auto &[index, shard] : by_index) {
      const json &run = shard->json["run"];
      report.run.started = std::min(report.run.started, run["started"].get<std::string>());
      report.run.finished = std::max(report.run.finished, run["finished"].get<std::string>());
      every_shard_complete = every_shard_complete && run["complete"].get<bool>();
      for (const std::string &failure : Strings(run, "failures")) {
        report.run.failures.push_back("shard " + ShardName(run["shard"]) + ": " + failure);
      }
      MergedShard from;
      from.file = shard->file;
      from.index = index;
      from.count = count;
      from.cases = run["shard"]["cases"].get<size_t>();
      from.host = shard->json["host"]["cpu"].get<std::string>();
      from.started = run["started"].get<std::string>();
      from.finished = run["finished"].get<std::string>();
      from.complete = run["complete"].get<bool>();
      report.run.merged_from.push_back(std::move(from));
      if (shard->json.contains("expectations")) {
        if (!report.expectations) report.expectations.emplace();
        AddExpectations(shard->json["expectations"], &*report.expectations);
      }
    }

    // What narrowed the whole selection stays; the shard's own line goes, since the union
    // may be the whole selection.
    ShardInfo first_shard;
    first_shard.index = selection["index"].get<int>();
    first_shard.count = count;
    first_shard.cases = selection["cases"].get<size_t>();
    first_shard.selected = selected;
    const std::string shard_line = ShardNarrowing(first_shard);
    for (const std::string &line : Strings(first_run, "narrowed")) {
      if (line != shard_line) report.run.narrowed.push_back(line);
    }
    std::string missing;
    for (int index = 1; index <= count; ++index) {
      if (by_index.count(index) == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(index) + "/" + std::to_string(count);
    }
    std::vector<std::string> ids;
    for (const auto &entry : file_of_id) ids.push_back(entry.first);
    if (!missing.empty()) {
      report.run.narrowed.push_back("the merged reports hold " + std::to_string(results.size()) + " of the " +
                                    std::to_string(selected) + " selected cases: shard(s) " + missing + " missing");
    } else if (every_shard_complete && SelectionDigest(ids) != selection["selection"].get<std::string>()) {
      report.run.narrowed.push_back("the merged cases (" + std::to_string(results.size()) +
                                    ") are not the selection the shards were cut from (" + std::to_string(selected) +
                                    " cases)");
    }
    report.run.complete = every_shard_complete && missing.empty();

    for (auto &entry : results) report.Add(std::move(entry.second));

    // The roofline of the union: its measured peaks may come from any shard.
    const ShardReport *with_roofline = nullptr;
    for (const auto &[index, shard] : by_index) {
      if (!with_roofline && shard->json.contains("roofline")) with_roofline = shard;
    }
    if (with_roofline) {
      Roofline roofline;
      roofline.device = with_roofline->json["roofline"]["device"].get<std::string>();
      roofline.peaks = MeasuredPeaks(report.results());
      for (const json &peak : with_roofline->json["roofline"]["peaks"]) {
        if (peak["source"] != "spec_sheet") continue;
        roofline.peaks.push_back({peak["name"].get<std::string>(), peak["value"].get<double>(),
                                  peak["unit"].get<std::string>(), "spec_sheet", "", peak.value("part", "")});
      }
      report.SetRoofline(std::move(roofline));
    }
  } catch (const std::exception &failure) {
    *error = std::string("a report cannot be read: ") + failure.what();
    return false;
  }
  return true;
}

}  // namespace infinicts::report
