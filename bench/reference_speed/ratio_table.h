// The pairs the benchmark compares, the reporter that keeps every measured figure, and
// the final table: reference figure / baseline figure against a target, PASS or SHORT (or
// BOUND: short of a target that its ceiling puts out of reach, but near that ceiling).
#ifndef INFINICTS_BENCH_REFERENCE_SPEED_RATIO_TABLE_H
#define INFINICTS_BENCH_REFERENCE_SPEED_RATIO_TABLE_H

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace infinicts::bench {

struct RatioRow {
  std::string label;      // what is compared, for people
  std::string reference;  // benchmark name of the reference side
  std::string baseline;   // benchmark name of the baseline side
  std::string reference_counter;  // the figure taken from each side, e.g. bytes_per_second
  std::string baseline_counter;
  double target;          // the least acceptable reference / baseline
  // The ratio the least work the operation must do reaches when it runs at the baseline's
  // own rate, where that is far below the target (0: none): the AllReduce busbw row's
  // (n-1)/n^2. A row short of its target but at least half of its ceiling is BOUND, not SHORT.
  double ceiling = 0;
};

// The console reporter, which also keeps each benchmark's counters by name: the highest
// value among its runs (repetitions, and a baseline registered more than once).
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  explicit RecordingReporter(bool color)
      : benchmark::ConsoleReporter(color ? OO_ColorTabular : OO_Tabular) {}
  void ReportRuns(const std::vector<Run> &runs) override;
  // The counter of a benchmark that ran without error; false when there is none.
  bool Find(const std::string &benchmark, const std::string &counter, double *value) const;

 private:
  std::map<std::string, std::map<std::string, double>> counters_;
};

struct TableOutcome {
  size_t rows = 0;
  size_t measured = 0;
  size_t short_rows = 0;
  size_t bound_rows = 0;
};

// Prints the table to `out` and counts what it found.
TableOutcome PrintRatioTable(const std::vector<RatioRow> &rows, const RecordingReporter &figures, std::FILE *out);

}  // namespace infinicts::bench

#endif  // INFINICTS_BENCH_REFERENCE_SPEED_RATIO_TABLE_H
