#include "regression/perf_verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace infinicts::regression {
namespace {

// The smallest change of a median that can count, in ms: below it, what a loaded host's
// scheduler and shared caches do to a whole run (a 1 µs Add measured 5.5x slower, its band
// tight, in an identical run on a busy 2-core machine) is as large as a real change.
constexpr double kSmallestChangeMs = 0.01;

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

// How many times its fast end a run's slow end is: p90 / p10 (1 for a band of zero width).
double WithinRun(const TimeSpread &time) {
  if (time.high_ms <= time.low_ms) return 1;
  if (!(time.low_ms > 0)) return std::numeric_limits<double>::infinity();
  return time.high_ms / time.low_ms;
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
  spread.fastest_pass_ms = spread.slowest_pass_ms = spread.median_ms;
  if (timing != result.end() && timing->is_object()) {
    const auto repeats = timing->find("repeat_medians_ms");
    if (repeats != timing->end() && repeats->is_array()) {
      size_t timed_passes = 0;  // the median's own pass among them
      for (const nlohmann::json &pass : *repeats) {
        if (!pass.is_number() || !std::isfinite(pass.get<double>()) || !(pass.get<double>() > 0)) continue;
        spread.fastest_pass_ms = std::min(spread.fastest_pass_ms, pass.get<double>());
        spread.slowest_pass_ms = std::max(spread.slowest_pass_ms, pass.get<double>());
        ++timed_passes;
      }
      spread.passes = std::max<size_t>(1, timed_passes);
    }
  }
  // A band must hold its median, whatever rounding the report's figures went through.
  spread.low_ms = std::min(spread.low_ms, spread.median_ms);
  spread.high_ms = std::max(spread.high_ms, spread.median_ms);
  return spread;
}

BaselineTimes CombineBaselines(const std::vector<TimeSpread> &times) {
  BaselineTimes base;
  if (times.empty()) return base;
  std::vector<double> medians;
  base.combined = times.front();
  base.fastest_median = times.front().fastest_pass_ms;
  base.slowest_median = times.front().slowest_pass_ms;
  for (const TimeSpread &time : times) {
    medians.push_back(time.median_ms);
    base.combined.low_ms = std::min(base.combined.low_ms, time.low_ms);
    base.combined.high_ms = std::max(base.combined.high_ms, time.high_ms);
    base.fastest_median = std::min(base.fastest_median, time.fastest_pass_ms);
    base.slowest_median = std::max(base.slowest_median, time.slowest_pass_ms);
    base.passes += time.passes;
    base.widest_within_run = std::max(base.widest_within_run, WithinRun(time));
  }
  base.combined.median_ms = Quantile(medians, 0.5);
  base.runs = times.size();
  return base;
}

PerfJudgement JudgePerf(const BaselineTimes &base, const TimeSpread &next, double threshold) {
  PerfJudgement judgement;
  judgement.spread.baseline_runs = base.runs;
  judgement.spread.baseline_passes = base.passes;
  judgement.spread.between_runs =
      std::max(base.slowest_median / base.fastest_median, next.slowest_pass_ms / next.fastest_pass_ms);
  const double between = judgement.spread.between_runs;
  const double ratio = next.median_ms / base.combined.median_ms;
  if (ratio > 1 + threshold) {
    judgement.spread.within_run = WithinRun(next);
    const bool beyond = next.fastest_pass_ms > base.slowest_median * between &&
                        next.fastest_pass_ms - base.slowest_median >= kSmallestChangeMs &&
                        next.low_ms > base.combined.high_ms * judgement.spread.within_run;
    judgement.verdict = beyond ? PerfVerdict::kSlowdown : PerfVerdict::kNoise;
  } else if (ratio < 1 / (1 + threshold)) {
    judgement.spread.within_run = base.widest_within_run;
    const bool beyond = next.slowest_pass_ms < base.fastest_median / between &&
                        base.fastest_median - next.slowest_pass_ms >= kSmallestChangeMs &&
                        next.high_ms * judgement.spread.within_run < base.combined.low_ms;
    judgement.verdict = beyond ? PerfVerdict::kSpeedup : PerfVerdict::kNoise;
  }
  return judgement;
}

PerfVerdict JudgePerf(const TimeSpread &base, const TimeSpread &next, double threshold) {
  return JudgePerf(CombineBaselines({base}), next, threshold).verdict;
}

}  // namespace infinicts::regression
