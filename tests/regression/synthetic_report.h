// Reports built in the tests: a valid report (schema_version 2) to which cases are added
// one by one, with the statuses, metrics and samples each test needs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace infinicts::regression::testing {

class SyntheticReport {
 public:
  SyntheticReport();

  // A case; suite, subject and mode come from the id ("op.add.perf/...").
  SyntheticReport &Case(const std::string &id, const std::string &status,
                        nlohmann::json metrics = nlohmann::json::object());
  // A passing perf case with the time metrics median, p10, p90.
  SyntheticReport &PerfPercentiles(const std::string &id, double median, double p10, double p90);
  // A passing perf case with timing.samples_ms (and the median metric of the samples).
  SyntheticReport &PerfSamples(const std::string &id, const std::vector<double> &samples);
  // A passing perf case with only time_ms_median and time_cv.
  SyntheticReport &PerfCv(const std::string &id, double median, double cv);

  SyntheticReport &Incomplete();
  SyntheticReport &Host(const std::string &cpu, int cores);
  SyntheticReport &DeviceType(const std::string &type);
  SyntheticReport &Argv(const std::vector<std::string> &argv);

  const nlohmann::json &json() const { return json_; }

 private:
  nlohmann::json json_;
};

}  // namespace infinicts::regression::testing
