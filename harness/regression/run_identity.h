// Whether two runs are like for like: a performance ratio means something only between
// runs on the same host, backend, device type and perf profile. Differences are warned
// about, never judged: comparing two backends on purpose is a valid use.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "regression/comparison.h"

namespace infinicts::regression {

// The perf profile a run used: the value of --profile in run.argv, else "quick".
std::string ProfileOf(const nlohmann::json &report);

// One line per difference: infinicts version and build, host (os, cpu, cores, memory), backend
// libraries and the functions they export, device type and ids, perf profile.
std::vector<std::string> LikeForLikeWarnings(const nlohmann::json &base, const nlohmann::json &next);

// What the heading shows about a report.
RunSummary SummarizeRun(const std::string &path, const nlohmann::json &report);

}  // namespace infinicts::regression
