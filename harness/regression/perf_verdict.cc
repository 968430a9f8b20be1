#include "regression/perf_verdict.h"

#include <algorithm>
#include <cmath>

namespace infinicts::regression {
namespace {

// p10 and p90 of a normal law lie 1.2816 standard deviations from its mean.
constexpr double kNormalP90Sigmas = 1.2816;

std::optional<double> PositiveMetric(const nlohmann::json &metrics, const char *name) {
  const auto found = metrics.find(name);
  if (found == metrics.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

std::vector<double> SamplesOf(const nlohmann::json &result) {
  std::vector<double> samples;
  const auto timing = result.find("timing");
  if (timing == result.end() || !timing->is_object()) return samples;
  const auto list = timing->find("samples_ms");
  if (list == timing->end() || !list->is_array()) return samples;
  for (const nlohmann::json &sample : *list) {
    if (sample.is_number() && std::isfinite(sample.get<double>())) samples.push_back(sample.get<double>());
  }
  return samples;
}

}  // namespace

double Quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const double rank = q * static_cast<double>(samples.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(rank));
  const size_t above = std::min(below + 1, samples.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return samples[below] + (samples[above] - samples[below]) * fraction;
}

std::optional<TimeSpread> TimeSpreadOf(const nlohmann::json &result) {
  static const nlohmann::json kNoMetrics = nlohmann::json::object();
  const auto metrics_entry = result.find("metrics");
  const nlohmann::json &metrics =
      metrics_entry != result.end() && metrics_entry->is_object() ? *metrics_entry : kNoMetrics;
  const std::vector<double> samples = SamplesOf(result);
  // Timed near the timer's resolution (timing.resolved false): no time to compare.
  const auto timing = result.find("timing");
  if (timing != result.end() && timing->is_object()) {
    const auto resolved = timing->find("resolved");
    if (resolved != timing->end() && resolved->is_boolean() && !resolved->get<bool>()) return std::nullopt;
  }

  TimeSpread spread;
  if (const auto median = PositiveMetric(metrics, "time_ms_median")) spread.median_ms = *median;
  else if (!samples.empty()) spread.median_ms = Quantile(samples, 0.5);
  if (!(spread.median_ms > 0)) return std::nullopt;

  const auto p10 = PositiveMetric(metrics, "time_ms_p10");
  const auto p90 = PositiveMetric(metrics, "time_ms_p90");
  const auto cv = PositiveMetric(metrics, "time_cv");
  if (samples.size() >= 2) {
    spread.low_ms = Quantile(samples, 0.1);
    spread.high_ms = Quantile(samples, 0.9);
    spread.source = SpreadSource::kSamples;
  } else if (p10 && p90) {
    spread.low_ms = *p10;
    spread.high_ms = *p90;
    spread.source = SpreadSource::kPercentiles;
  } else if (cv) {
    const double half_width = kNormalP90Sigmas * *cv * spread.median_ms;
    spread.low_ms = std::max(0.0, spread.median_ms - half_width);
    spread.high_ms = spread.median_ms + half_width;
    spread.source = SpreadSource::kCv;
  } else {
    spread.low_ms = spread.high_ms = spread.median_ms;
    spread.source = SpreadSource::kNone;
  }
  // A band must hold its median, whatever rounding the report's figures went through.
  spread.low_ms = std::min(spread.low_ms, spread.median_ms);
  spread.high_ms = std::max(spread.high_ms, spread.median_ms);
  return spread;
}

PerfVerdict JudgePerf(const TimeSpread &base, const TimeSpread &next, double threshold) {
  const double ratio = next.median_ms / base.median_ms;
  if (ratio > 1 + threshold) return next.low_ms > base.high_ms ? PerfVerdict::kSlowdown : PerfVerdict::kNoise;
  if (ratio < 1 / (1 + threshold)) return next.high_ms < base.low_ms ? PerfVerdict::kSpeedup : PerfVerdict::kNoise;
  return PerfVerdict::kUnchanged;
}

}  // namespace infinicts::regression
