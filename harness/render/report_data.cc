#include "render/report_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "render/number_format.h"
#include "report/status.h"

namespace infinicts::render {
namespace {

double Quantile(std::vector<double> sorted, double q) {
  if (sorted.empty()) return 0;
  const double position = q * (sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(sorted.size() - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

bool IsPerf(const Json &result, const char *suite) {
  return result.value("mode", "") == "perf" && result.value("suite", "") == suite;
}

// Index of the series with this label, appended when new (keeps first-seen order).
SeriesData &SeriesFor(std::vector<SeriesData> *series, const std::string &label) {
  for (SeriesData &existing : *series) {
    if (existing.label == label) return existing;
  }
  series->push_back({label, {}, {}});
  return series->back();
}

// Seconds since 1970 of "YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)".
std::optional<double> EpochSeconds(const std::string &timestamp) {
  int year, month, day, hour, minute;
  double second;
  if (std::sscanf(timestamp.c_str(), "%d-%d-%dT%d:%d:%lf", &year, &month, &day, &hour, &minute, &second) != 6) {
    return std::nullopt;
  }
  // Days from civil date (proleptic Gregorian), Howard Hinnant's well-known formula.
  year -= month <= 2;
  const int era = (year >= 0 ? year : year - 399) / 400;
  const int year_of_era = year - era * 400;
  const int day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  const double days = era * 146097.0 + day_of_era - 719468;
  double seconds = days * 86400 + hour * 3600 + minute * 60 + second;
  const size_t zone = timestamp.find_first_of("+-", 19);
  if (zone != std::string::npos) {
    int zone_hours = 0, zone_minutes = 0;
    std::sscanf(timestamp.c_str() + zone + 1, "%d:%d", &zone_hours, &zone_minutes);
    const double offset = zone_hours * 3600.0 + zone_minutes * 60.0;
    seconds += timestamp[zone] == '+' ? -offset : offset;
  }
  return seconds;
}

}  // namespace

IdParts SplitId(const std::string &id) {
  IdParts parts;
  const size_t slash = id.find('/');
  const std::string head = id.substr(0, slash);
  parts.rest = slash == std::string::npos ? "" : id.substr(slash + 1);
  const size_t first_dot = head.find('.');
  const size_t last_dot = head.rfind('.');
  parts.suite = head.substr(0, first_dot);
  if (first_dot != std::string::npos && last_dot > first_dot) {
    parts.subject = head.substr(first_dot + 1, last_dot - first_dot - 1);
    parts.mode = head.substr(last_dot + 1);
  }
  return parts;
}

std::optional<double> NumberAt(const Json &object, const std::string &key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

std::string ParamText(const Json &params, const std::string &key) {
  if (!params.is_object()) return "";
  const auto found = params.find(key);
  if (found == params.end()) return "";
  return found->is_string() ? found->get<std::string>() : found->dump();
}

std::vector<SummaryColumn> SummaryColumns(const Json &summary) {
  std::vector<SummaryColumn> columns;
  for (const char *status : kStatusOrder) {
    const int count = summary.value(status, 0);
    if (std::string(status) != "crash") {
      columns.push_back({status, status, count});
      continue;
    }
    const int invalid = summary.value("crash_on_invalid_input", 0);
    columns.push_back({"crash on valid input", status, count - invalid});
    columns.push_back({"crash on invalid input", status, invalid});
  }
  return columns;
}

int StatusSeverity(const std::string &status) {
  static const char *const kBestToWorst[] = {"pass", "skip", "unsupported", "xfail", "blocked", "fail", "timeout", "crash"};
  for (int i = 0; i < static_cast<int>(std::size(kBestToWorst)); ++i) {
    if (status == kBestToWorst[i]) return i;
  }
  return 0;
}

bool IsFailureStatus(const std::string &status) {
  const std::optional<report::Status> parsed = report::ParseStatus(status);
  return parsed && report::IsFailure(*parsed);
}

TimingFigures TimingOf(const Json &result) {
  TimingFigures figures;
  const Json &metrics = result.contains("metrics") ? result["metrics"] : Json::object();
  figures.median_ms = NumberAt(metrics, "time_ms_median");
  figures.p10_ms = NumberAt(metrics, "time_ms_p10");
  figures.p90_ms = NumberAt(metrics, "time_ms_p90");
  figures.cv = NumberAt(metrics, "time_cv");
  std::vector<double> samples;
  if (result.contains("timing") && result["timing"].contains("samples_ms")) {
    for (const Json &sample : result["timing"]["samples_ms"]) {
      if (sample.is_number()) samples.push_back(sample.get<double>());
    }
  }
  figures.samples = samples.size();
  if (samples.empty()) return figures;
  std::sort(samples.begin(), samples.end());
  if (!figures.median_ms) figures.median_ms = Quantile(samples, 0.5);
  if (!figures.p10_ms) figures.p10_ms = Quantile(samples, 0.1);
  if (!figures.p90_ms) figures.p90_ms = Quantile(samples, 0.9);
  if (!figures.cv) {
    double mean = 0;
    for (double sample : samples) mean += sample;
    mean /= samples.size();
    double variance = 0;
    for (double sample : samples) variance += (sample - mean) * (sample - mean);
    variance /= samples.size();
    if (mean > 0) figures.cv = std::sqrt(variance) / mean;
  }
  return figures;
}

std::optional<Throughput> HeadlineThroughput(const Json &result) {
  const Json &metrics = result.contains("metrics") ? result["metrics"] : Json::object();
  const std::optional<double> gflops = NumberAt(metrics, "gflops");
  const std::optional<double> flops = NumberAt(metrics, "flops");
  if (gflops && *gflops > 0 && (!flops || *flops > 0)) return Throughput{*gflops, "GFLOP/s"};
  if (auto busbw = NumberAt(metrics, "busbw_gbytes_per_s")) return Throughput{*busbw, "busbw GB/s"};
  if (auto bandwidth = NumberAt(metrics, "gbytes_per_s")) return Throughput{*bandwidth, "GB/s"};
  return std::nullopt;
}

std::vector<SeriesData> MemcpyBandwidthSeries(const Json &report) {
  std::vector<SeriesData> series;
  for (const Json &result : report["results"]) {
    if (!IsPerf(result, "rt") || result.value("subject", "") != "memory") continue;
    const std::optional<double> bytes = NumberAt(result["params"], "bytes");
    const std::optional<double> bandwidth = NumberAt(result["metrics"], "gbytes_per_s");
    if (!bytes || !bandwidth) continue;
    std::string label = ParamText(result["params"], "kind");
    const std::string host_memory = ParamText(result["params"], "host_memory");
    if (!host_memory.empty()) label += " (" + host_memory + ")";
    SeriesData &line = SeriesFor(&series, label.empty() ? "memcpy" : label);
    line.points.emplace_back(*bytes, *bandwidth);
    line.ids.push_back(result.value("id", ""));
  }
  return series;
}

std::vector<SeriesData> CollectiveBusbwSeries(const Json &report) {
  std::vector<const Json *> perf;
  std::vector<std::string> dtypes;
  for (const Json &result : report["results"]) {
    if (!IsPerf(result, "ccl")) continue;
    if (!NumberAt(result["params"], "bytes") || !NumberAt(result["metrics"], "busbw_gbytes_per_s")) continue;
    perf.push_back(&result);
    const std::string dtype = ParamText(result["params"], "dtype");
    if (std::find(dtypes.begin(), dtypes.end(), dtype) == dtypes.end()) dtypes.push_back(dtype);
  }
  std::vector<SeriesData> series;
  for (const Json *result : perf) {
    const Json &params = (*result)["params"];
    std::string label = result->value("subject", "");
    const std::string ranks = ParamText(params, "ranks");
    if (!ranks.empty()) label += ", " + ranks + " ranks";
    if (dtypes.size() > 1) label += ", " + ParamText(params, "dtype");
    SeriesData &line = SeriesFor(&series, label);
    line.points.emplace_back(*NumberAt(params, "bytes"), *NumberAt((*result)["metrics"], "busbw_gbytes_per_s"));
    line.ids.push_back(result->value("id", ""));
  }
  return series;
}

std::vector<SeriesData> RooflinePoints(const Json &report) {
  std::vector<SeriesData> series;
  for (const Json &result : report["results"]) {
    if (!IsPerf(result, "op")) continue;
    const std::optional<double> intensity = NumberAt(result["metrics"], "arithmetic_intensity_flops_per_byte");
    const std::optional<double> gflops = NumberAt(result["metrics"], "gflops");
    if (!intensity || !gflops || *intensity <= 0 || *gflops <= 0) continue;
    SeriesData &points = SeriesFor(&series, result.value("subject", ""));
    points.points.emplace_back(*intensity, *gflops);
    points.ids.push_back(result.value("id", ""));
    // The roof it was held to (report/roofline.h): a cache's, or none that holds it.
    std::string note, held_to;
    if (NumberAt(result["metrics"], "above_roof")) {
      note = "above every measured roof: a roof or this figure is wrong";
      held_to = "above";
    } else if (NumberAt(result["metrics"], "roof_level_cache")) {
      note = "ran in a cache: held to the cache's roof";
      held_to = "cache";
    }
    points.notes.resize(points.ids.size() - 1);
    points.notes.push_back(note);
    points.held_to.resize(points.ids.size() - 1);
    points.held_to.push_back(held_to);
  }
  return series;
}

std::vector<OpThroughput> OpThroughputs(const Json &report) {
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, std::string>>> values;
  std::map<std::pair<std::string, std::string>, std::string> units;
  std::vector<std::pair<std::string, std::string>> order;
  for (const Json &result : report["results"]) {
    if (!IsPerf(result, "op") || result.value("status", "") != "pass") continue;
    const std::optional<Throughput> throughput = HeadlineThroughput(result);
    if (!throughput) continue;
    const auto key = std::make_pair(result.value("subject", ""), ParamText(result["params"], "dtype"));
    if (!values.count(key)) order.push_back(key);
    // An operator mixing units (GFLOP/s for some shapes only) is ranked by its first unit.
    if (!units.count(key)) units[key] = throughput->unit;
    if (units[key] != throughput->unit) continue;
    values[key].emplace_back(throughput->value, result.value("id", ""));
  }
  std::sort(order.begin(), order.end());
  std::vector<OpThroughput> rows;
  for (const auto &key : order) {
    std::vector<std::pair<double, std::string>> &cases = values[key];
    std::sort(cases.begin(), cases.end());
    std::vector<double> sorted;
    for (const auto &entry : cases) sorted.push_back(entry.first);
    rows.push_back({key.first, key.second, units[key], cases.back().first, Quantile(sorted, 0.5), cases.back().second,
                    cases.size()});
  }
  return rows;
}

std::string MatrixDtype(const Json &result) {
  const Json params = result.value("params", Json::object());
  const std::string dtype = ParamText(params, "dtype");
  if (dtype.empty()) return "any";
  if (params.is_object() && params.contains("allowed_by_spec") && params["allowed_by_spec"] == false) return "any";
  return dtype;
}

StatusMatrix OpStatusMatrix(const Json &report) {
  StatusMatrix matrix;
  for (const Json &result : report["results"]) {
    const std::string mode = result.value("mode", "");
    if (result.value("suite", "") != "op" || (mode != "conformance" && mode != "accuracy")) continue;
    const std::string op = result.value("subject", "");
    const std::string dtype = MatrixDtype(result);
    const std::string status = result.value("status", "");
    StatusCell &cell = matrix.cells[{op, dtype}];
    ++cell.counts[status];
    ++cell.total;
    if (status == "unsupported" && result.contains("optional_capability")) ++cell.refused_optional;
    else if (StatusSeverity(status) > StatusSeverity(cell.worst)) cell.worst = status;
    if (std::find(matrix.ops.begin(), matrix.ops.end(), op) == matrix.ops.end()) matrix.ops.push_back(op);
    if (std::find(matrix.dtypes.begin(), matrix.dtypes.end(), dtype) == matrix.dtypes.end()) matrix.dtypes.push_back(dtype);
  }
  // "any" last, the dtypes in name order (bf16, f16, f32, f64, i8, …).
  std::sort(matrix.dtypes.begin(), matrix.dtypes.end(), [](const std::string &a, const std::string &b) {
    return (a == "any") != (b == "any") ? b == "any" : a < b;
  });
  return matrix;
}

std::vector<SubjectCounts> CountsBySubject(const Json &report) {
  std::vector<SubjectCounts> rows;
  std::map<std::string, size_t> index;
  for (const Json &result : report["results"]) {
    const std::string suite = result.value("suite", ""), subject = result.value("subject", ""),
                      mode = result.value("mode", "");
    const std::string key = suite + "." + subject + "." + mode;
    auto found = index.find(key);
    if (found == index.end()) {
      found = index.emplace(key, rows.size()).first;
      rows.push_back({suite, subject, mode, {}, 0, 0});
    }
    SubjectCounts &row = rows[found->second];
    ++row.counts[result.value("status", "")];
    ++row.total;
    row.duration_ms += NumberAt(result, "duration_ms").value_or(0);
  }
  return rows;
}

std::string RunDuration(const Json &report) {
  const std::optional<double> started = EpochSeconds(report["run"].value("started", ""));
  const std::optional<double> finished = EpochSeconds(report["run"].value("finished", ""));
  if (!started || !finished || *finished < *started) return "";
  const long long seconds = std::llround(*finished - *started);
  if (seconds < 60) return std::to_string(seconds) + " s";
  if (seconds < 3600) return std::to_string(seconds / 60) + " min " + std::to_string(seconds % 60) + " s";
  return std::to_string(seconds / 3600) + " h " + std::to_string(seconds % 3600 / 60) + " min";
}

bool JudgesLevels(const Json &report) {
  for (const Json &mode : report["run"]["modes"]) {
    if (mode != "perf") return true;
  }
  return false;
}

std::string LevelVerdict(const Json &report, const std::string &level) {
  const Json &summary = report["summary"];
  if (summary.contains("level_verdicts")) return summary["level_verdicts"].value(level, "not judged");
  if (!JudgesLevels(report)) return "not judged";
  return summary["levels"].value(level, false) ? "reached" : "not reached";
}

std::string NotPassingText(const Json &counts) {
  std::string text;
  for (const auto &[status, count] : counts.items()) {
    if (status != "pass" && status != "skip") text += (text.empty() ? "" : ", ") + std::to_string(count.get<int>()) + " " + status;
  }
  return text;
}

RefusedLayouts RefusedLayoutsOf(const Json &report) {
  RefusedLayouts refused;
  const Json &summary = report["summary"];
  if (!summary.contains("missing_capabilities")) return refused;
  std::set<std::string> kinds;
  for (const Json &missing : summary["missing_capabilities"]) {
    const std::string capability = missing.value("capability", "");
    if (capability.rfind("layout ", 0) != 0) continue;
    const std::string op = missing.value("part", ""), kind = capability.substr(7);
    if (std::find(refused.ops.begin(), refused.ops.end(), op) == refused.ops.end()) refused.ops.push_back(op);
    kinds.insert(kind);
    refused.cases[{op, kind}] += missing.value("cases", 0);
  }
  refused.kinds.assign(kinds.begin(), kinds.end());
  return refused;
}

std::string RootCauseWhere(const report::RootCauseGroup &group) {
  std::string where;
  for (size_t i = 0; i < group.subjects.size() && i < 4; ++i) where += (i == 0 ? "" : ", ") + group.subjects[i];
  if (group.subjects.size() > 4) where += " and " + std::to_string(group.subjects.size() - 4) + " more";
  if (!group.trigger.empty()) where += (where.empty() ? "" : ", ") + std::string("on ") + group.trigger;
  return where;
}

std::vector<report::RootCauseGroup> RootCausesOf(const Json &report) {
  const Json &summary = report["summary"];
  if (summary.contains("root_causes")) {
    std::vector<report::RootCauseGroup> groups;
    for (const Json &entry : summary["root_causes"]) {
      report::RootCauseGroup group;
      group.status = report::ParseStatus(entry.value("status", "fail")).value_or(report::Status::kFail);
      group.clause = entry.value("clause", "");
      group.message = entry.value("message", "");
      group.count = entry.value("count", 0);
      group.examples = entry.value("examples", std::vector<std::string>{});
      group.subjects = entry.value("subjects", std::vector<std::string>{});
      group.trigger = entry.value("trigger", "");
      group.rerun = entry.value("rerun", "");
      groups.push_back(std::move(group));
    }
    return groups;
  }
  report::RootCauses causes;
  for (const Json &result : report["results"]) {
    try {
      causes.Add(report::CaseResultFromJson(result));
    } catch (const std::exception &) {
      // A validated report's results all read; anything else has no group to join.
    }
  }
  return causes.Groups();
}

}  // namespace infinicts::render
