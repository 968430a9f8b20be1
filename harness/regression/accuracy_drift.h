// Accuracy drift: how the error metrics of a case moved between two runs. Drift alone is
// never a regression (the case's tolerance decides, through its status); it is shown so
// that an error creeping toward its bound is seen before it crosses it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "regression/comparison.h"

namespace infinicts::regression {

// The error metrics compared: max_abs_err, max_rel_err, max_ulp.
const std::vector<std::string> &AccuracyMetricNames();

// One entry per accuracy metric both results hold as a finite number (unchanged ones too).
std::vector<AccuracyDrift> AccuracyDriftsOf(const std::string &id, const nlohmann::json &base,
                                            const nlohmann::json &next);

// Orders drifts largest growth first (by next / base; ties by id, then metric).
void SortByGrowth(std::vector<AccuracyDrift> *drifts);

}  // namespace infinicts::regression
