// What `infinicts compare` finds between a baseline report and a new one: status changes,
// accuracy drift, performance verdicts, and why the two runs may not be like for like.
// The analysis (compare_reports.h) fills it; the writers only read it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace infinicts::regression {

// The facts of one run that the comparison shows in its heading.
struct RunSummary {
  std::string path;
  std::string tool_git;
  std::string started;
  std::string device_type;
  size_t results = 0;
  bool complete = true;
};

enum class StatusChangeKind {
  kNewlyFailing,    // pass, xfail, skip or unsupported -> fail, blocked, crash or timeout
  kLostCapability,  // pass -> unsupported: the backend no longer offers what it did
  kNoLongerRun,     // pass -> skip: what was tested is no longer
  kMissing,         // passed, and the new report has no result for it
  kNewlyPassing,    // anything else -> pass
  kOtherChange,     // e.g. fail -> crash, pass -> xfail
  kAdded,           // only in the new report
  kRemoved,         // did not pass, and only the baseline has it
};
inline constexpr StatusChangeKind kAllStatusChangeKinds[] = {
    StatusChangeKind::kNewlyFailing, StatusChangeKind::kLostCapability, StatusChangeKind::kNoLongerRun,
    StatusChangeKind::kMissing,      StatusChangeKind::kNewlyPassing,   StatusChangeKind::kOtherChange,
    StatusChangeKind::kAdded,        StatusChangeKind::kRemoved};

bool IsRegression(StatusChangeKind kind);
const char *StatusChangeTitle(StatusChangeKind kind);  // "newly failing", "lost capability", …

struct StatusChange {
  std::string id;
  StatusChangeKind kind;
  std::string base_status, new_status;  // empty on the side where the case is absent
  std::string message;                  // the new result's message (the baseline's when removed)
};

// One accuracy metric (max_abs_err, max_rel_err, max_ulp) of a case in both reports.
struct AccuracyDrift {
  std::string id, metric;
  double base = 0, next = 0;
  double ratio = 1;  // next / base; +infinity when base is 0 and next is not; 1 when both are 0
  std::string new_status;
};

// Where a time's spread came from, best first.
enum class SpreadSource { kSamples, kPercentiles, kCv, kNone };
const char *SpreadSourceName(SpreadSource source);  // "samples", "p10/p90", "cv", "median only"

// A case's time: the median and the band [low, high] its samples mostly fall in (p10..p90).
struct TimeSpread {
  double median_ms = 0, low_ms = 0, high_ms = 0;
  SpreadSource source = SpreadSource::kNone;
  // A run made with `run --repeat N`: its fastest and slowest pass's median, and N. One pass:
  // both are the median.
  double fastest_pass_ms = 0, slowest_pass_ms = 0;
  size_t passes = 1;
};

enum class PerfVerdict {
  kSlowdown,   // slower beyond the threshold and beyond the runs' spread
  kSpeedup,    // faster beyond the threshold and beyond the runs' spread
  kUnchanged,  // the change is within the threshold
  kNoise,      // beyond the threshold, but within the spread between or within runs
};
const char *PerfVerdictName(PerfVerdict verdict);  // "slowdown", "speedup", "unchanged", "noise"

// The spreads a change must exceed (perf_verdict.h): between the baselines' medians, and
// within the run that looks slower (its own p90 / p10).
struct PerfSpread {
  size_t baseline_runs = 1;    // baseline reports that timed the case
  size_t baseline_passes = 1;  // their passes (run --repeat) in all: baseline_runs when none repeated
  // slowest / fastest median of a pass, over the baselines' passes or the new run's, the
  // larger: 1 with one baseline of one pass and a new run of one pass
  double between_runs = 1;
  double within_run = 1;       // the slower-looking run's p90 / p10
};

struct PerfChange {
  std::string id;
  std::string group;  // "<suite>.<subject>", e.g. op.add
  TimeSpread base, next;  // base: the baselines' median of medians, their lowest p10 and highest p90
  double ratio = 1;  // next median / base median: above 1 is slower
  PerfVerdict verdict = PerfVerdict::kUnchanged;
  PerfSpread spread;
  // A throughput both results report (gflops, gbytes_per_s, busbw_gbytes_per_s), if any.
  std::string throughput_metric;
  double base_throughput = 0, new_throughput = 0;
};

// The geometric mean of the time ratios of one suite.subject (or of every case).
struct PerfGroup {
  std::string group;
  size_t compared = 0, slowdowns = 0, speedups = 0;
  double geomean_ratio = 1;
};

struct Comparison {
  RunSummary base, next;                   // base: the first baseline
  std::vector<RunSummary> more_baselines;  // the other baselines, whose times widen the spread
  double threshold = 0.05;
  std::vector<std::string> warnings;  // runs not like for like, incomplete runs, repeated ids

  size_t matched = 0;                       // ids in both reports
  std::vector<StatusChange> status_changes;  // grouped by kind, then by id

  size_t accuracy_compared = 0;               // cases with an accuracy metric in both
  std::vector<AccuracyDrift> accuracy_drifts;  // every metric that changed, largest growth first

  std::vector<PerfChange> perf;  // every perf case timed in both, slowest ratio first
  size_t perf_untimed = 0;       // perf cases in both that lack a time on one side
  std::vector<PerfGroup> perf_groups;
  std::optional<PerfGroup> perf_overall;

  size_t CountOf(StatusChangeKind kind) const;
  size_t CountOf(PerfVerdict verdict) const;
  // Newly failing, lost capability, no longer run, missing and slowdowns: what makes `compare` exit 1.
  size_t Regressions() const;
};

}  // namespace infinicts::regression
