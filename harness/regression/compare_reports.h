// The comparison of a new report with one or more baselines (already loaded and validated
// against the schema): results are matched by id; the first baseline's statuses and errors
// are compared, every baseline's times; see docs/compare.md for what each finding means.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "regression/comparison.h"

namespace infinicts::regression {

struct CompareSettings {
  std::string base_path, new_path;  // shown in the outputs
  double threshold = 0.05;          // a relative time change below this is no change
  std::vector<std::string> more_base_paths;  // the baselines after the first, in order
};

Comparison CompareReports(const nlohmann::json &base, const nlohmann::json &next, const CompareSettings &settings);
// baselines: the first, then one per settings.more_base_paths.
Comparison CompareReports(const std::vector<const nlohmann::json *> &baselines, const nlohmann::json &next,
                          const CompareSettings &settings);

}  // namespace infinicts::regression
