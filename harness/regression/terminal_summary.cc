#include "regression/terminal_summary.h"

#include <algorithm>
#include <sstream>

#include "regression/format.h"
#include "report/first_line.h"

namespace infinicts::regression {
namespace {

constexpr size_t kItemsShown = 10;

std::string DescribeRun(const RunSummary &run) {
  std::string text = run.path + "  (" + CountOf(run.results, "result");
  if (!run.device_type.empty()) text += ", " + run.device_type;
  if (!run.tool_git.empty()) text += ", infinicts " + run.tool_git;
  if (!run.started.empty()) text += ", started " + run.started;
  if (!run.complete) text += ", INCOMPLETE";
  return text + ")";
}

void MoreLine(size_t total, std::ostringstream &out) {
  if (total > kItemsShown) out << "    … and " << total - kItemsShown << " more (--md / --html list them)\n";
}

void WriteConformance(const Comparison &comparison, std::ostringstream &out) {
  out << "Conformance: " << CountOf(comparison.matched, "case") << " in both;";
  bool first = true;
  for (StatusChangeKind kind : kAllStatusChangeKinds) {
    const size_t count = comparison.CountOf(kind);
    if (count == 0) continue;
    out << (first ? " " : ", ") << count << " " << StatusChangeTitle(kind);
    first = false;
  }
  out << (first ? " no status changed\n" : "\n");
  // Regressions first, then what got better; the rest is counted only.
  for (StatusChangeKind kind : {StatusChangeKind::kNewlyFailing, StatusChangeKind::kLostCapability,
                                StatusChangeKind::kNoLongerRun, StatusChangeKind::kMissing,
                                StatusChangeKind::kNewlyPassing}) {
    size_t shown = 0;
    for (const StatusChange &change : comparison.status_changes) {
      if (change.kind != kind || shown++ >= kItemsShown) continue;
      out << "  " << StatusChangeTitle(kind) << "  " << change.id << "  "
          << (change.base_status.empty() ? "-" : change.base_status) << " -> "
          << (change.new_status.empty() ? "(no result)" : change.new_status);
      const std::string message = report::FirstLine(change.message);
      if (!message.empty() && kind != StatusChangeKind::kNewlyPassing) out << "  " << message;
      out << "\n";
    }
    MoreLine(comparison.CountOf(kind), out);
  }
}

void WriteAccuracy(const Comparison &comparison, std::ostringstream &out) {
  const size_t grew = static_cast<size_t>(std::count_if(comparison.accuracy_drifts.begin(),
                                                        comparison.accuracy_drifts.end(),
                                                        [](const AccuracyDrift &d) { return d.ratio > 1; }));
  if (comparison.accuracy_compared == 0) {
    out << "Accuracy: no case with error metrics in both\n";
    return;
  }
  out << "Accuracy: " << CountOf(comparison.accuracy_compared, "case") << " with error metrics in both; "
      << CountOf(grew, "metric") << " grew (information only)\n";
  for (size_t i = 0; i < std::min(grew, kItemsShown / 2); ++i) {
    const AccuracyDrift &drift = comparison.accuracy_drifts[i];
    out << "  drift  " << drift.id << "  " << drift.metric << " " << FormatNumber(drift.base) << " -> "
        << FormatNumber(drift.next) << " (" << FormatRatio(drift.ratio) << ", now " << drift.new_status << ")\n";
  }
}

void WritePerfItems(const Comparison &comparison, PerfVerdict verdict, std::ostringstream &out) {
  std::vector<const PerfChange *> items;
  for (const PerfChange &change : comparison.perf) {
    if (change.verdict == verdict) items.push_back(&change);
  }
  if (verdict == PerfVerdict::kSpeedup) std::reverse(items.begin(), items.end());
  for (size_t i = 0; i < std::min(items.size(), kItemsShown); ++i) {
    const PerfChange &change = *items[i];
    out << "  " << PerfVerdictName(verdict) << "  " << change.id << "  " << FormatRatio(change.ratio) << " ("
        << FormatPercentChange(change.ratio) << ")  " << FormatBand(change.base) << " -> " << FormatBand(change.next)
        << "  beyond " << FormatSpreadExceeded(change.spread) << "\n";
  }
  MoreLine(items.size(), out);
}

void WritePerformance(const Comparison &comparison, std::ostringstream &out) {
  if (comparison.perf.empty() && comparison.perf_untimed == 0) {
    out << "Performance: no perf case in both\n";
    return;
  }
  out << "Performance (threshold " << FormatThreshold(comparison.threshold) << ", " << BaselineCount(comparison)
      << "): "
      << CountOf(comparison.perf.size(), "case") << " timed in both; "
      << CountOf(comparison.CountOf(PerfVerdict::kSlowdown), "slowdown") << ", "
      << CountOf(comparison.CountOf(PerfVerdict::kSpeedup), "speedup") << ", " << comparison.CountOf(PerfVerdict::kUnchanged)
      << " unchanged, " << comparison.CountOf(PerfVerdict::kNoise) << " noise";
  if (comparison.perf_overall) out << "; geomean time ratio " << FormatRatio(comparison.perf_overall->geomean_ratio);
  if (comparison.perf_untimed > 0) out << "; " << comparison.perf_untimed << " untimed on one side";
  out << "\n";
  for (const PerfGroup &group : comparison.perf_groups) {
    out << "  " << group.group << "  " << CountOf(group.compared, "case") << ", geomean " << FormatRatio(group.geomean_ratio);
    if (group.slowdowns > 0) out << ", " << group.slowdowns << " slower";
    if (group.speedups > 0) out << ", " << group.speedups << " faster";
    out << "\n";
  }
  WritePerfItems(comparison, PerfVerdict::kSlowdown, out);
  WritePerfItems(comparison, PerfVerdict::kSpeedup, out);
}

}  // namespace

std::string TerminalSummary(const Comparison &comparison) {
  std::ostringstream out;
  out << "baseline  " << DescribeRun(comparison.base) << "\n";
  for (const RunSummary &run : comparison.more_baselines) out << "baseline  " << DescribeRun(run) << "\n";
  out << "new       " << DescribeRun(comparison.next) << "\n";
  for (const std::string &warning : comparison.warnings) out << "warning: " << warning << "\n";
  WriteConformance(comparison, out);
  WriteAccuracy(comparison, out);
  WritePerformance(comparison, out);
  const std::string tally = RegressionTally(comparison);
  out << (tally.empty() ? "No regression.\n" : "REGRESSION: " + tally + "\n");
  return out.str();
}

}  // namespace infinicts::regression
