// Reading the pieces every renderer needs out of a validated report (JSON as
// LoadReportFile returns it): id parts, numbers, status order, timing figures, and the
// grouping of perf results into chart series.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/root_causes.h"

namespace infinicts::render {

using Json = nlohmann::json;

// The order the tables list statuses in: passing, then failing, then not run.
inline const char *const kStatusOrder[] = {"pass",        "fail", "blocked", "crash", "timeout",
                                           "unsupported", "skip", "xfail"};

// The summary table's columns, in kStatusOrder: each status and its count, with the crashes
// split into those on valid input and those in probes of invalid input (a NULL argument a
// backend did not check is not a memory bug of its working paths).
struct SummaryColumn {
  std::string label;   // "pass", …, "crash on valid input", "crash on invalid input", …
  std::string status;  // the status it counts, for colouring
  int count = 0;
};
std::vector<SummaryColumn> SummaryColumns(const Json &summary);

// <suite>.<subject>.<mode>/<rest>: `rest` is the part after the first '/'.
struct IdParts {
  std::string suite, subject, mode, rest;
};
IdParts SplitId(const std::string &id);

// A number under `key` (null, absent or not a number: nullopt).
std::optional<double> NumberAt(const Json &object, const std::string &key);
// A parameter as text: strings bare, anything else as compact JSON; empty when absent.
std::string ParamText(const Json &params, const std::string &key);

// How bad a status is, for "worst status" colouring: pass 0 … crash 7.
int StatusSeverity(const std::string &status);
bool IsFailureStatus(const std::string &status);  // fail, blocked, crash, timeout (report::IsFailure)

// Median, p10, p90 and coefficient of variation of a perf case's time: the metrics
// time_ms_median/p10/p90 and time_cv when the case gives them, else from timing.samples_ms.
struct TimingFigures {
  std::optional<double> median_ms, p10_ms, p90_ms, cv;
  size_t samples = 0;
};
TimingFigures TimingOf(const Json &result);

// The headline throughput of a perf case and its unit word (GFLOP/s, GB/s, busbw GB/s).
struct Throughput {
  double value = 0;
  std::string unit;
};
std::optional<Throughput> HeadlineThroughput(const Json &result);

// One line of a chart: points (x, y, case id) in insertion order.
struct SeriesData {
  std::string label;
  std::vector<std::pair<double, double>> points;
  std::vector<std::string> ids;
  std::vector<std::string> notes;  // per point, may be empty: what its tip adds (RooflinePoints)
  // Per point (RooflinePoints), may be empty: the roof it was held to, "" (memory), "cache"
  // (it ran in a cache) or "above" (above every measured roof).
  std::vector<std::string> held_to;
};

// rt.memory.perf bandwidth: gbytes_per_s against bytes, one series per kind/host memory.
std::vector<SeriesData> MemcpyBandwidthSeries(const Json &report);
// ccl.*.perf: busbw_gbytes_per_s against bytes, one series per collective and rank count
// (and dtype when the report holds several).
std::vector<SeriesData> CollectiveBusbwSeries(const Json &report);
// op.*.perf: arithmetic intensity against GFLOP/s, one series per operator.
std::vector<SeriesData> RooflinePoints(const Json &report);

// Per operator and dtype, the best and median of the op perf cases' GFLOP/s (or GB/s
// where the operator does no arithmetic).
struct OpThroughput {
  std::string op, dtype, unit;  // unit: "GFLOP/s" or "GB/s"
  double best = 0, median = 0;
  std::string best_id;
  size_t cases = 0;
};
std::vector<OpThroughput> OpThroughputs(const Json &report);

// The dtype a result counts under in the operator × dtype matrix and in the HTML case filter:
// params.dtype, "any" without one, and "any" for a probe of a dtype the operator does not
// admit (params.allowed_by_spec false): such a case tests the refusal, not the dtype.
std::string MatrixDtype(const Json &result);

// Status counts of the op suite's conformance and accuracy cases per operator × dtype
// (MatrixDtype).
struct StatusCell {
  std::map<std::string, int> counts;  // status → count
  int total = 0;
  std::string worst = "pass";  // of the cases the backend was held to
  // Unsupported results of an optional capability (result.optional_capability): refused, as
  // the spec allows. Counted in `counts` as unsupported, kept out of `worst`.
  int refused_optional = 0;
  bool AllRefusedOptional() const { return total > 0 && refused_optional == total; }
};
struct StatusMatrix {
  std::vector<std::string> ops, dtypes;
  std::map<std::pair<std::string, std::string>, StatusCell> cells;
};
StatusMatrix OpStatusMatrix(const Json &report);

// Counts of results per (suite, subject, mode), for the collapsed per-suite tables.
struct SubjectCounts {
  std::string suite, subject, mode;
  std::map<std::string, int> counts;
  int total = 0;
  double duration_ms = 0;
};
std::vector<SubjectCounts> CountsBySubject(const Json &report);

// "6 min 5 s" from the run's started/finished timestamps, or empty when unreadable.
std::string RunDuration(const Json &report);
// Levels are a conformance verdict: a run of perf cases alone does not judge them.
bool JudgesLevels(const Json &report);
inline constexpr const char *kLevelsNotJudged = "not judged: the run had no conformance or accuracy cases";
// "reached", "not reached" or "not judged" (older reports, without level_verdicts: from levels).
std::string LevelVerdict(const Json &report, const std::string &level);
// A part's counts other than pass and skip, "3 fail, 1 blocked" (summary.parts[].counts).
std::string NotPassingText(const Json &counts);
// The report's failures by root cause (summary.root_causes, or grouped from the results of a
// report written before it had them).
std::vector<report::RootCauseGroup> RootCausesOf(const Json &report);
// The layouts each operator refused cleanly at create (summary.missing_capabilities entries named
// "layout <kind>"): operator -> kind -> cases, beside the dtype matrix.
struct RefusedLayouts {
  std::vector<std::string> ops;    // "op.rms_norm", in report order
  std::vector<std::string> kinds;  // "transposed", sorted
  std::map<std::pair<std::string, std::string>, int> cases;
};
RefusedLayouts RefusedLayoutsOf(const Json &report);

// "op.softplus, op.conv, on x_layout ∈ {broadcast, transposed}": where a group's cases are.
std::string RootCauseWhere(const report::RootCauseGroup &group);

}  // namespace infinicts::render
