// Checks a report of `infinicts run --mode perf` against what perf mode promises:
// it validates against the schema; every selected suite has perf results; every passing
// perf result carries the statistics (median, min, p10, p90, cv, count) and its samples;
// throughput figures agree with the median; the roofline names its peaks and holds
// the operators against them.
//   perf_report_check REPORT.json SUITE[,SUITE…]
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "report/load_report.h"

namespace {

int failures = 0;

void Fail(const std::string &id, const std::string &what) {
  if (++failures <= 20) std::fprintf(stderr, "perf_report_check: %s: %s\n", id.c_str(), what.c_str());
}

double Metric(const nlohmann::json &result, const char *name) {
  const nlohmann::json &metrics = result.at("metrics");
  return metrics.contains(name) && metrics[name].is_number() ? metrics[name].get<double>() : NAN;
}

void CheckStatistics(const std::string &id, const nlohmann::json &result) {
  for (const char *name : {"time_ms_median", "time_ms_min", "time_ms_p10", "time_ms_p90", "time_cv", "iterations"}) {
    if (std::isnan(Metric(result, name))) Fail(id, std::string("no metric ") + name);
  }
  if (!result.contains("timing")) return Fail(id, "no timing object");
  const nlohmann::json &samples = result["timing"]["samples_ms"];
  if (samples.empty()) return Fail(id, "no samples");
  if (static_cast<double>(samples.size()) != Metric(result, "iterations")) Fail(id, "iterations != sample count");
  const double min = Metric(result, "time_ms_min"), p10 = Metric(result, "time_ms_p10");
  const double median = Metric(result, "time_ms_median"), p90 = Metric(result, "time_ms_p90");
  if (!(min <= p10 && p10 <= median && median <= p90)) Fail(id, "statistics out of order");
}

// A throughput is its work over the median time.
void CheckThroughput(const std::string &id, const nlohmann::json &result) {
  const double median_s = Metric(result, "time_ms_median") * 1e-3;
  const double gflops = Metric(result, "gflops"), flops = Metric(result, "flops");
  if (!std::isnan(gflops) && !std::isnan(flops) && flops > 0 &&
      std::fabs(gflops - flops / median_s / 1e9) > 1e-3 * gflops) {
    Fail(id, "gflops does not match flops / median time");
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: perf_report_check REPORT.json SUITE[,SUITE...]\n");
    return 2;
  }
  nlohmann::json report;
  std::string error;
  if (!infinicts::report::LoadReportFile(argv[1], &report, &error)) {
    std::fprintf(stderr, "perf_report_check: %s\n", error.c_str());
    return 1;
  }
  std::map<std::string, int> perf_per_suite;
  size_t op_results = 0, held_against_roof = 0;
  for (const nlohmann::json &result : report["results"]) {
    if (result["mode"] != "perf") continue;
    const std::string id = result["id"];
    ++perf_per_suite[result["suite"].get<std::string>()];
    if (result["status"] != "pass") {
      if (result["status"] != "skip") Fail(id, "ended " + result["status"].get<std::string>());
      continue;
    }
    CheckStatistics(id, result);
    CheckThroughput(id, result);
    if (result["suite"] == "op") {
      ++op_results;
      if (!std::isnan(Metric(result, "roof_fraction"))) ++held_against_roof;
    }
  }
  std::istringstream suites(argv[2]);
  std::string suite;
  while (std::getline(suites, suite, ',')) {
    if (perf_per_suite[suite] == 0) Fail(suite, "no perf results");
  }
  if (!report.contains("roofline")) {
    Fail("roofline", "missing");
  } else {
    std::set<std::string> peaks;
    for (const nlohmann::json &peak : report["roofline"]["peaks"]) peaks.insert(peak["name"].get<std::string>());
    if (!peaks.count("bandwidth")) Fail("roofline", "no measured bandwidth peak");
    if (perf_per_suite["op"] > 0 && !peaks.count("compute:f32")) Fail("roofline", "no measured F32 compute peak");
  }
  if (op_results != held_against_roof) {
    Fail("roofline", std::to_string(op_results - held_against_roof) + " operator results without roof_fraction");
  }
  for (const auto &[name, count] : perf_per_suite) std::printf("%s: %d perf results\n", name.c_str(), count);
  if (failures > 0) std::fprintf(stderr, "perf_report_check: %d problem(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
