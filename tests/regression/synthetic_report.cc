#include "synthetic_report.h"

#include <algorithm>

namespace infinicts::regression::testing {

SyntheticReport::SyntheticReport() {
  json_ = {
      {"schema_version", 2},
      {"tool", {{"name", "infinicts"}, {"version", "0.1.0"}, {"git", "test"}}},
      {"host", {{"os", "Linux"}, {"cpu", "Test CPU"}, {"cores", 2}, {"memory_bytes", 1 << 30}}},
      {"backend",
       {{"libraries", {"/opt/backend/libinfinirt.so"}},
        {"device_type", "cpu"},
        {"device_ids", {0}},
        {"device_count", 2},
        {"exported", {"infinirtInit"}},
        {"missing", nlohmann::json::array()}}},
      {"run",
       {{"started", "2026-01-01T00:00:00Z"},
        {"finished", "2026-01-01T00:01:00Z"},
        {"argv", {"infinicts", "run"}},
        {"suites", {"op"}},
        {"modes", {"conformance", "accuracy", "perf"}},
        {"complete", true}}},
      {"summary",
       {{"total", 0}, {"pass", 0}, {"fail", 0}, {"unsupported", 0}, {"skip", 0}, {"blocked", 0}, {"crash", 0}, {"timeout", 0},
        {"xfail", 0}, {"levels", {{"minimal", false}, {"advanced", false}}}}},
      {"results", nlohmann::json::array()},
  };
}

SyntheticReport &SyntheticReport::Case(const std::string &id, const std::string &status, nlohmann::json metrics) {
  const size_t first_dot = id.find('.');
  const size_t second_dot = id.find('.', first_dot + 1);
  const size_t slash = id.find('/');
  json_["results"].push_back({{"id", id},
                              {"suite", id.substr(0, first_dot)},
                              {"subject", id.substr(first_dot + 1, second_dot - first_dot - 1)},
                              {"mode", id.substr(second_dot + 1, slash - second_dot - 1)},
                              {"clauses", nlohmann::json::array()},
                              {"status", status},
                              {"message", status == "pass" ? "" : "what went wrong | <here>"},
                              {"duration_ms", 1.0},
                              {"params", nlohmann::json::object()},
                              {"metrics", std::move(metrics)}});
  json_["summary"]["total"] = json_["summary"]["total"].get<int>() + 1;
  json_["summary"][status] = json_["summary"][status].get<int>() + 1;
  return *this;
}

SyntheticReport &SyntheticReport::PerfPercentiles(const std::string &id, double median, double p10, double p90) {
  return Case(id, "pass", {{"time_ms_median", median}, {"time_ms_p10", p10}, {"time_ms_p90", p90}});
}

SyntheticReport &SyntheticReport::PerfSamples(const std::string &id, const std::vector<double> &samples) {
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  Case(id, "pass", {{"time_ms_median", sorted[sorted.size() / 2]}});
  json_["results"].back()["timing"] = {
      {"method", "host_clock"}, {"warmup_iterations", 2}, {"samples_ms", samples}};
  return *this;
}

SyntheticReport &SyntheticReport::PerfCv(const std::string &id, double median, double cv) {
  return Case(id, "pass", {{"time_ms_median", median}, {"time_cv", cv}});
}

SyntheticReport &SyntheticReport::Incomplete() {
  json_["run"]["complete"] = false;
  return *this;
}

SyntheticReport &SyntheticReport::Host(const std::string &cpu, int cores) {
  json_["host"]["cpu"] = cpu;
  json_["host"]["cores"] = cores;
  return *this;
}

SyntheticReport &SyntheticReport::DeviceType(const std::string &type) {
  json_["backend"]["device_type"] = type;
  return *this;
}

SyntheticReport &SyntheticReport::Argv(const std::vector<std::string> &argv) {
  json_["run"]["argv"] = argv;
  return *this;
}

}  // namespace infinicts::regression::testing
