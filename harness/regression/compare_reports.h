// The comparison of two reports (already loaded and validated against the schema):
// results are matched by id; see docs/compare.md for what each finding means.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "regression/comparison.h"

namespace infinicts::regression {

struct CompareSettings {
  std::string base_path, new_path;  // shown in the outputs
  double threshold = 0.05;          // a relative time change below this is no change
};

Comparison CompareReports(const nlohmann::json &base, const nlohmann::json &next, const CompareSettings &settings);

}  // namespace infinicts::regression
