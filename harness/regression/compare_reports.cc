#include "regression/compare_reports.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "regression/accuracy_drift.h"
#include "regression/perf_verdict.h"
#include "regression/run_identity.h"
#include "regression/status_change.h"
#include "report/status.h"

namespace infinicts::regression {
namespace {

using ResultsById = std::map<std::string, const nlohmann::json *>;

// Every result by id; an id seen twice keeps its last result and earns a warning.
ResultsById IndexResults(const nlohmann::json &report, const std::string &which, std::vector<std::string> *warnings) {
  ResultsById index;
  size_t repeated = 0;
  for (const nlohmann::json &result : report.at("results")) {
    if (!index.emplace(result.at("id").get<std::string>(), &result).second) {
      index[result.at("id").get<std::string>()] = &result;
      ++repeated;
    }
  }
  if (repeated > 0)
    warnings->push_back("the " + which + " report repeats " + std::to_string(repeated) +
                        " case id(s); the last result of each is compared");
  return index;
}

report::Status StatusOf(const nlohmann::json &result) {
  return report::ParseStatus(result.at("status").get<std::string>()).value_or(report::Status::kFail);
}

std::string StatusText(const nlohmann::json &result) { return result.at("status").get<std::string>(); }

void CompareStatuses(const ResultsById &base, const ResultsById &next, Comparison *out) {
  for (const auto &[id, base_result] : base) {
    const auto found = next.find(id);
    if (found == next.end()) {
      // A case that passed and has no new result is lost, whatever the reason (a run killed
      // before it, a narrower selection, a retired id): the gate cannot vouch for it.
      const bool lost = StatusOf(*base_result) == report::Status::kPass;
      out->status_changes.push_back({id, lost ? StatusChangeKind::kMissing : StatusChangeKind::kRemoved,
                                     StatusText(*base_result), "", base_result->value("message", "")});
      continue;
    }
    ++out->matched;
    if (const auto kind = ClassifyStatusChange(StatusOf(*base_result), StatusOf(*found->second)))
      out->status_changes.push_back(
          {id, *kind, StatusText(*base_result), StatusText(*found->second), found->second->value("message", "")});
  }
  for (const auto &[id, new_result] : next) {
    if (base.count(id) == 0)
      out->status_changes.push_back({id, StatusChangeKind::kAdded, "", StatusText(*new_result),
                                     new_result->value("message", "")});
  }
  std::stable_sort(out->status_changes.begin(), out->status_changes.end(),
                   [](const StatusChange &a, const StatusChange &b) {
                     if (a.kind != b.kind) return a.kind < b.kind;
                     return a.id < b.id;
                   });
}

void CompareAccuracy(const ResultsById &base, const ResultsById &next, Comparison *out) {
  for (const auto &[id, base_result] : base) {
    const auto found = next.find(id);
    if (found == next.end()) continue;
    std::vector<AccuracyDrift> drifts = AccuracyDriftsOf(id, *base_result, *found->second);
    if (drifts.empty()) continue;
    ++out->accuracy_compared;
    for (AccuracyDrift &drift : drifts) {
      if (drift.base != drift.next) out->accuracy_drifts.push_back(std::move(drift));
    }
  }
  SortByGrowth(&out->accuracy_drifts);
}

std::string GroupOf(const nlohmann::json &result) {
  return result.at("suite").get<std::string>() + "." + result.at("subject").get<std::string>();
}

// The first throughput metric both results report as a finite number.
void AttachThroughput(const nlohmann::json &base, const nlohmann::json &next, PerfChange *change) {
  for (const char *metric : {"gflops", "gbytes_per_s", "busbw_gbytes_per_s"}) {
    const nlohmann::json &base_value = base.at("metrics").value(metric, nlohmann::json());
    const nlohmann::json &new_value = next.at("metrics").value(metric, nlohmann::json());
    if (!base_value.is_number() || !new_value.is_number()) continue;
    change->throughput_metric = metric;
    change->base_throughput = base_value.get<double>();
    change->new_throughput = new_value.get<double>();
    return;
  }
}

PerfGroup Summarize(const std::string &name, const std::vector<const PerfChange *> &changes) {
  PerfGroup group;
  group.group = name;
  double log_sum = 0;
  for (const PerfChange *change : changes) {
    ++group.compared;
    group.slowdowns += change->verdict == PerfVerdict::kSlowdown;
    group.speedups += change->verdict == PerfVerdict::kSpeedup;
    log_sum += std::log(change->ratio);
  }
  if (group.compared > 0) group.geomean_ratio = std::exp(log_sum / static_cast<double>(group.compared));
  return group;
}

// The case's time in each baseline after the first that timed it.
std::vector<TimeSpread> MoreBaselineTimes(const std::string &id, const std::vector<ResultsById> &more_baselines) {
  std::vector<TimeSpread> times;
  for (const ResultsById &baseline : more_baselines) {
    const auto found = baseline.find(id);
    if (found == baseline.end() || found->second->at("mode") != "perf") continue;
    if (const std::optional<TimeSpread> time = TimeSpreadOf(*found->second)) times.push_back(*time);
  }
  return times;
}

void ComparePerf(const ResultsById &base, const std::vector<ResultsById> &more_baselines, const ResultsById &next,
                 double threshold, Comparison *out) {
  for (const auto &[id, base_result] : base) {
    const auto found = next.find(id);
    if (found == next.end() || base_result->at("mode") != "perf" || found->second->at("mode") != "perf") continue;
    const std::optional<TimeSpread> base_time = TimeSpreadOf(*base_result);
    const std::optional<TimeSpread> new_time = TimeSpreadOf(*found->second);
    if (!base_time || !new_time) {
      ++out->perf_untimed;
      continue;
    }
    std::vector<TimeSpread> base_times = {*base_time};
    for (const TimeSpread &time : MoreBaselineTimes(id, more_baselines)) base_times.push_back(time);
    const BaselineTimes baselines = CombineBaselines(base_times);
    const PerfJudgement judgement = JudgePerf(baselines, *new_time, threshold);
    PerfChange change;
    change.id = id;
    change.group = GroupOf(*base_result);
    change.base = baselines.combined;
    change.next = *new_time;
    change.ratio = new_time->median_ms / baselines.combined.median_ms;
    change.verdict = judgement.verdict;
    change.spread = judgement.spread;
    AttachThroughput(*base_result, *found->second, &change);
    out->perf.push_back(std::move(change));
  }
  std::stable_sort(out->perf.begin(), out->perf.end(),
                   [](const PerfChange &a, const PerfChange &b) { return a.ratio > b.ratio; });

  std::map<std::string, std::vector<const PerfChange *>> by_group;
  std::vector<const PerfChange *> every;
  for (const PerfChange &change : out->perf) {
    by_group[change.group].push_back(&change);
    every.push_back(&change);
  }
  for (const auto &[name, changes] : by_group) out->perf_groups.push_back(Summarize(name, changes));
  if (!every.empty()) out->perf_overall = Summarize("all", every);
}

void WarnAboutIncompleteRuns(const Comparison &comparison, std::vector<std::string> *warnings) {
  if (!comparison.base.complete)
    warnings->push_back("the baseline run did not complete (run.complete is false): cases it never reached show "
                        "as added");
  if (!comparison.next.complete)
    warnings->push_back("the new run did not complete (run.complete is false): it was killed or interrupted; "
                        "baseline cases that passed and have no new result count as regressions");
}

}  // namespace

Comparison CompareReports(const nlohmann::json &base, const nlohmann::json &next, const CompareSettings &settings) {
  return CompareReports(std::vector<const nlohmann::json *>{&base}, next, settings);
}

Comparison CompareReports(const std::vector<const nlohmann::json *> &baselines, const nlohmann::json &next,
                          const CompareSettings &settings) {
  const nlohmann::json &base = *baselines.front();
  Comparison comparison;
  comparison.threshold = settings.threshold;
  comparison.base = SummarizeRun(settings.base_path, base);
  comparison.next = SummarizeRun(settings.new_path, next);
  comparison.warnings = LikeForLikeWarnings(base, next);
  WarnAboutIncompleteRuns(comparison, &comparison.warnings);

  const ResultsById base_results = IndexResults(base, "baseline", &comparison.warnings);
  const ResultsById new_results = IndexResults(next, "new", &comparison.warnings);
  std::vector<ResultsById> more_results;
  for (size_t i = 1; i < baselines.size(); ++i) {
    const std::string path = i - 1 < settings.more_base_paths.size() ? settings.more_base_paths[i - 1] : "";
    const std::string name = "baseline " + std::to_string(i + 1);
    comparison.more_baselines.push_back(SummarizeRun(path, *baselines[i]));
    for (const std::string &warning : LikeForLikeWarnings(*baselines[i], next))
      comparison.warnings.push_back(name + " and new: " + warning);
    more_results.push_back(IndexResults(*baselines[i], name, &comparison.warnings));
  }
  CompareStatuses(base_results, new_results, &comparison);
  CompareAccuracy(base_results, new_results, &comparison);
  ComparePerf(base_results, more_results, new_results, settings.threshold, &comparison);
  return comparison;
}

}  // namespace infinicts::regression
