// The worst of a call's output comparisons, recorded as the case's metrics: max_abs_err,
// max_rel_err, max_ulp and mismatch_count, each after a prefix ("against_" side by side).
#pragma once

#include <algorithm>
#include <string>

#include "cts/case.h"
#include "tolerance/output_check.h"

namespace infinicts::op_cases {

struct WorstComparison {
  double max_abs = 0.0, max_rel = 0.0, max_ulp = 0.0, mismatches = 0.0;

  void Add(const CompareResult &result) {
    max_abs = std::max(max_abs, result.max_abs_err);
    max_rel = std::max(max_rel, result.max_rel_err);
    max_ulp = std::max(max_ulp, result.max_ulp);
    mismatches += static_cast<double>(result.mismatch_count);
  }

  void Record(const std::string &prefix) const {
    cts::RecordMetric(prefix + "max_abs_err", max_abs);
    cts::RecordMetric(prefix + "max_rel_err", max_rel);
    cts::RecordMetric(prefix + "max_ulp", max_ulp);
    cts::RecordMetric(prefix + "mismatch_count", mismatches);
  }
};

}  // namespace infinicts::op_cases
