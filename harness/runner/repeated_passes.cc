#include "runner/repeated_passes.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "regression/perf_verdict.h"

namespace infinicts::runner {

std::optional<double> MedianTimeMs(const report::CaseResult &result) {
  // The median compare reads: the passes' spread is held against it (docs/compare.md).
  const std::optional<regression::TimeSpread> time = regression::TimeSpreadOf(nlohmann::json(report::ToJson(result)));
  if (!time) return std::nullopt;
  return time->median_ms;
}

report::CaseResult MergePasses(std::vector<report::CaseResult> passes) {
  if (passes.size() == 1) return std::move(passes.front());
  const std::string of = " of " + std::to_string(passes.size());
  double total_ms = 0;
  for (const report::CaseResult &pass : passes) total_ms += pass.duration_ms;
  for (size_t index = 0; index < passes.size(); ++index) {
    if (passes[index].status == report::Status::kPass) continue;
    report::CaseResult first_not_passed = std::move(passes[index]);
    const std::string where = "pass " + std::to_string(index + 1) + of + " (--repeat)";
    first_not_passed.message = first_not_passed.message.empty() ? where : where + ": " + first_not_passed.message;
    first_not_passed.duration_ms = total_ms;
    return first_not_passed;
  }

  std::vector<double> medians;
  for (const report::CaseResult &pass : passes) {
    const std::optional<double> median = MedianTimeMs(pass);
    // A pass with no time (an untimed perf case, or work below the timer's resolution)
    // leaves nothing to spread: the first pass stands for the case.
    if (!median) {
      report::CaseResult first = std::move(passes.front());
      first.duration_ms = total_ms;
      return first;
    }
    medians.push_back(*median);
  }
  std::vector<size_t> order(passes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return medians[a] < medians[b]; });
  report::CaseResult merged = std::move(passes[order[(order.size() - 1) / 2]]);
  if (!merged.timing.is_object()) merged.timing = nlohmann::json::object();
  merged.timing["repeat_medians_ms"] = medians;
  merged.duration_ms = total_ms;
  return merged;
}

}  // namespace infinicts::runner
