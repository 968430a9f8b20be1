#include "ratio_table.h"

#include <algorithm>

namespace infinicts::bench {
namespace {

// A rate in engineering units: "12.3 GB/s", "150 GFLOP/s".
std::string Rate(double value, const std::string &counter) {
  const bool flops = counter.find("flop") != std::string::npos;
  char text[64];
  std::snprintf(text, sizeof text, "%.2f %s", value * 1e-9, flops ? "GFLOP/s" : "GB/s");
  return text;
}

// A row short of its target is BOUND when it reaches this share of its ceiling.
constexpr double kBoundShare = 0.5;

}  // namespace

void RecordingReporter::ReportRuns(const std::vector<Run> &runs) {
  for (const Run &run : runs) {
    // Single runs, and the "max" aggregate of repeated ones (a rate's max is its best).
    const bool wanted = run.run_type == Run::RT_Iteration || run.aggregate_name == "max";
    if (run.error_occurred || !wanted) continue;
    std::map<std::string, double> &kept = counters_[run.run_name.function_name];
    // The best of the repetitions: the moments other processes left the machine alone.
    for (const auto &[name, counter] : run.counters) kept[name] = std::max(kept[name], counter.value);
  }
  ConsoleReporter::ReportRuns(runs);
}

bool RecordingReporter::Find(const std::string &benchmark, const std::string &counter, double *value) const {
  const auto found = counters_.find(benchmark);
  if (found == counters_.end()) return false;
  const auto figure = found->second.find(counter);
  if (figure == found->second.end() || !(figure->second > 0)) return false;
  *value = figure->second;
  return true;
}

TableOutcome PrintRatioTable(const std::vector<RatioRow> &rows, const RecordingReporter &figures, std::FILE *out) {
  TableOutcome outcome;
  size_t label_width = 5;
  for (const RatioRow &row : rows) label_width = std::max(label_width, row.label.size());
  const int width = static_cast<int>(label_width);
  std::fprintf(out, "\nReference speed ratios (same process, same machine):\n");
  std::fprintf(out, "%-*s  %18s  %18s  %6s  %6s  %s\n", width, "ratio", "reference", "baseline", "ratio", "target",
               "verdict");
  for (const RatioRow &row : rows) {
    ++outcome.rows;
    double reference = 0, baseline = 0;
    if (!figures.Find(row.reference, row.reference_counter, &reference) ||
        !figures.Find(row.baseline, row.baseline_counter, &baseline)) {
      std::fprintf(out, "%-*s  %18s  %18s  %6s  %6.2f  NOT MEASURED\n", width, row.label.c_str(), "-", "-", "-",
                   row.target);
      continue;
    }
    ++outcome.measured;
    const double ratio = reference / baseline;
    const char *verdict = "PASS";
    if (ratio < row.target) {
      const bool bound = row.ceiling > 0 && ratio >= kBoundShare * row.ceiling;
      verdict = bound ? "BOUND" : "SHORT";
      ++(bound ? outcome.bound_rows : outcome.short_rows);
    }
    char ceiling[48] = "";
    if (row.ceiling > 0) std::snprintf(ceiling, sizeof ceiling, " (ceiling at memcpy's rate %.2f)", row.ceiling);
    std::fprintf(out, "%-*s  %18s  %18s  %6.2f  %6.2f  %s%s\n", width, row.label.c_str(),
                 Rate(reference, row.reference_counter).c_str(), Rate(baseline, row.baseline_counter).c_str(), ratio,
                 row.target, verdict, ceiling);
  }
  std::fprintf(out, "ratios measured: %zu of %zu; short of target: %zu; bound by a ceiling: %zu\n",
               outcome.measured, outcome.rows, outcome.short_rows, outcome.bound_rows);
  return outcome;
}

}  // namespace infinicts::bench
