#include "regression/accuracy_drift.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace infinicts::regression {
namespace {

std::optional<double> FiniteMetric(const nlohmann::json &result, const std::string &name) {
  const auto metrics = result.find("metrics");
  if (metrics == result.end() || !metrics->is_object()) return std::nullopt;
  const auto found = metrics->find(name);
  if (found == metrics->end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

double GrowthRatio(double base, double next) {
  base = std::fabs(base);
  next = std::fabs(next);
  if (base == 0) return next == 0 ? 1 : std::numeric_limits<double>::infinity();
  return next / base;
}

}  // namespace

const std::vector<std::string> &AccuracyMetricNames() {
  static const std::vector<std::string> names = {"max_abs_err", "max_rel_err", "max_ulp"};
  return names;
}

std::vector<AccuracyDrift> AccuracyDriftsOf(const std::string &id, const nlohmann::json &base,
                                            const nlohmann::json &next) {
  std::vector<AccuracyDrift> drifts;
  for (const std::string &metric : AccuracyMetricNames()) {
    const auto base_value = FiniteMetric(base, metric);
    const auto new_value = FiniteMetric(next, metric);
    if (!base_value || !new_value) continue;
    AccuracyDrift drift;
    drift.id = id;
    drift.metric = metric;
    drift.base = *base_value;
    drift.next = *new_value;
    drift.ratio = GrowthRatio(*base_value, *new_value);
    drift.new_status = next.value("status", "");
    drifts.push_back(std::move(drift));
  }
  return drifts;
}

void SortByGrowth(std::vector<AccuracyDrift> *drifts) {
  std::sort(drifts->begin(), drifts->end(), [](const AccuracyDrift &a, const AccuracyDrift &b) {
    if (a.ratio != b.ratio) return a.ratio > b.ratio;
    if (a.id != b.id) return a.id < b.id;
    return a.metric < b.metric;
  });
}

}  // namespace infinicts::regression
