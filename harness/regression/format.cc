#include "regression/format.h"

#include <cmath>
#include <cstdio>

namespace infinicts::regression {

std::string FormatNumber(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string FormatRatio(double ratio) {
  if (std::isinf(ratio)) return "×inf";
  char text[32];
  std::snprintf(text, sizeof text, "×%.2f", ratio);
  return text;
}

std::string FormatPercentChange(double ratio) {
  if (std::isinf(ratio)) return "+inf%";
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", (ratio - 1) * 100);
  return text;
}

std::string FormatMs(double ms) { return FormatNumber(ms) + " ms"; }

std::string FormatBand(const TimeSpread &time) {
  std::string text = FormatMs(time.median_ms);
  if (time.source != SpreadSource::kNone)
    text += " [" + FormatNumber(time.low_ms) + ", " + FormatNumber(time.high_ms) + "]";
  return text;
}

std::string FormatThreshold(double threshold) { return FormatNumber(threshold * 100) + "%"; }

std::string CountOf(size_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string FormatSpreadExceeded(const PerfSpread &spread) {
  std::string text;
  if (spread.baseline_passes > spread.baseline_runs)
    text = "between runs and passes " + FormatRatio(spread.between_runs) + ", ";
  else if (spread.baseline_runs > 1)
    text = "between " + CountOf(spread.baseline_runs, "baseline") + " " + FormatRatio(spread.between_runs) + ", ";
  else if (spread.between_runs > 1)
    text = "between the new run's passes " + FormatRatio(spread.between_runs) + ", ";
  return text + "within run " + FormatRatio(spread.within_run);
}

std::string BaselineCount(const Comparison &comparison) {
  return CountOf(1 + comparison.more_baselines.size(), "baseline");
}

std::string RegressionTally(const Comparison &comparison) {
  std::string tally;
  const auto add = [&tally](size_t count, const std::string &what) {
    if (count == 0) return;
    tally += (tally.empty() ? "" : ", ") + std::to_string(count) + " " + what;
  };
  for (StatusChangeKind kind : kAllStatusChangeKinds) {
    if (IsRegression(kind)) add(comparison.CountOf(kind), StatusChangeTitle(kind));
  }
  const size_t slowdowns = comparison.CountOf(PerfVerdict::kSlowdown);
  if (slowdowns > 0) tally += (tally.empty() ? "" : ", ") + CountOf(slowdowns, "slowdown");
  return tally;
}

}  // namespace infinicts::regression
