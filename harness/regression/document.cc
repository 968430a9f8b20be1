#include "regression/document.h"

#include <algorithm>
#include <cctype>

#include "regression/format.h"
#include "report/first_line.h"

namespace infinicts::regression {
namespace {

Block Paragraph(std::string text) {
  Block block;
  block.lines.push_back(std::move(text));
  return block;
}

Block Bullets(std::vector<std::string> lines) {
  Block block;
  block.kind = Block::Kind::kBullets;
  block.lines = std::move(lines);
  return block;
}

Block TableBlock(Table table) {
  Block block;
  block.kind = Block::Kind::kTable;
  block.table = std::move(table);
  return block;
}

void AddRow(Table *table, std::vector<Cell> row, size_t max_rows) {
  if (table->rows.size() < max_rows) table->rows.push_back(std::move(row));
  else ++table->rows_left_out;
}

Cell Number(const std::string &text) { return {text, CellStyle::kNumber}; }

Section RunsSection(const Comparison &comparison) {
  std::vector<const RunSummary *> runs = {&comparison.base};
  for (const RunSummary &run : comparison.more_baselines) runs.push_back(&run);
  runs.push_back(&comparison.next);
  Table table;
  table.headers = {""};
  for (size_t i = 0; i + 1 < runs.size(); ++i)
    table.headers.push_back(runs.size() == 2 ? "baseline" : "baseline " + std::to_string(i + 1));
  table.headers.push_back("new");
  const auto row = [&runs](const std::string &label, const auto &cell_of) {
    std::vector<Cell> cells = {{label}};
    for (const RunSummary *run : runs) cells.push_back(cell_of(*run));
    return cells;
  };
  table.rows = {
      row("report", [](const RunSummary &run) { return Cell{run.path}; }),
      row("tool", [](const RunSummary &run) { return Cell{run.tool_git}; }),
      row("started", [](const RunSummary &run) { return Cell{run.started}; }),
      row("device type", [](const RunSummary &run) { return Cell{run.device_type}; }),
      row("results", [](const RunSummary &run) { return Number(std::to_string(run.results)); }),
      row("complete",
          [](const RunSummary &run) {
            return Cell{run.complete ? "yes" : "no", run.complete ? CellStyle::kText : CellStyle::kWorse};
          }),
  };
  Section section{"Runs", {TableBlock(std::move(table))}};
  if (!comparison.warnings.empty()) {
    section.blocks.push_back(Paragraph("Warnings: the runs are not like for like, or not whole."));
    section.blocks.push_back(Bullets(comparison.warnings));
  }
  return section;
}

CellStyle StyleOf(StatusChangeKind kind) {
  if (IsRegression(kind)) return CellStyle::kWorse;
  if (kind == StatusChangeKind::kNewlyPassing) return CellStyle::kBetter;
  return CellStyle::kText;
}

Section ConformanceSection(const Comparison &comparison, size_t max_rows) {
  Section section{"Conformance", {}};
  section.blocks.push_back(Paragraph(CountOf(comparison.matched, "case") + " in both reports."));
  Table counts;
  counts.headers = {"change", "cases"};
  for (StatusChangeKind kind : kAllStatusChangeKinds) {
    const size_t count = comparison.CountOf(kind);
    counts.rows.push_back({{StatusChangeTitle(kind), count > 0 ? StyleOf(kind) : CellStyle::kText},
                           Number(std::to_string(count))});
  }
  section.blocks.push_back(TableBlock(std::move(counts)));
  for (StatusChangeKind kind : kAllStatusChangeKinds) {
    if (comparison.CountOf(kind) == 0) continue;
    Table table;
    table.headers = {"case", "baseline", "new", "message"};
    for (const StatusChange &change : comparison.status_changes) {
      if (change.kind != kind) continue;
      AddRow(&table,
             {{change.id},
              {change.base_status.empty() ? "—" : change.base_status},
              {change.new_status.empty() ? "—" : change.new_status, StyleOf(kind)},
              {report::FirstLine(change.message)}},
             max_rows);
    }
    std::string title = StatusChangeTitle(kind);
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    section.blocks.push_back(Paragraph(title + ":"));
    section.blocks.push_back(TableBlock(std::move(table)));
  }
  return section;
}

Section AccuracySection(const Comparison &comparison, size_t max_rows) {
  Section section{"Accuracy", {}};
  const size_t grew = static_cast<size_t>(std::count_if(comparison.accuracy_drifts.begin(),
                                                        comparison.accuracy_drifts.end(),
                                                        [](const AccuracyDrift &d) { return d.ratio > 1; }));
  const size_t shrank = comparison.accuracy_drifts.size() - grew;
  section.blocks.push_back(Paragraph(
      CountOf(comparison.accuracy_compared, "case") + " with error metrics in both reports; " +
      CountOf(grew, "metric") + " grew, " + std::to_string(shrank) +
      " shrank. Drift is information: a case regresses only when its status does (its tolerance decides)."));
  if (grew == 0) return section;
  Table table;
  table.headers = {"case", "metric", "baseline", "new", "change", "status now"};
  for (const AccuracyDrift &drift : comparison.accuracy_drifts) {
    if (drift.ratio <= 1) break;
    AddRow(&table,
           {{drift.id}, {drift.metric}, Number(FormatNumber(drift.base)), Number(FormatNumber(drift.next)),
            {FormatRatio(drift.ratio), CellStyle::kNumber}, {drift.new_status}},
           max_rows);
  }
  section.blocks.push_back(Paragraph("Largest growths:"));
  section.blocks.push_back(TableBlock(std::move(table)));
  return section;
}

CellStyle StyleOf(PerfVerdict verdict) {
  if (verdict == PerfVerdict::kSlowdown) return CellStyle::kWorse;
  if (verdict == PerfVerdict::kSpeedup) return CellStyle::kBetter;
  return CellStyle::kText;
}

std::vector<Cell> PerfRow(const PerfChange &change) {
  std::string throughput = "—";
  if (!change.throughput_metric.empty())
    throughput = FormatNumber(change.base_throughput) + " → " + FormatNumber(change.new_throughput) + " " +
                 change.throughput_metric;
  return {{change.id},
          {FormatRatio(change.ratio), StyleOf(change.verdict)},
          Number(FormatPercentChange(change.ratio)),
          Number(FormatBand(change.base)),
          Number(FormatBand(change.next)),
          {throughput},
          {change.verdict == PerfVerdict::kUnchanged ? "—" : FormatSpreadExceeded(change.spread)},
          {PerfVerdictName(change.verdict), StyleOf(change.verdict)}};
}

Table PerfTable(const std::vector<const PerfChange *> &changes, size_t max_rows) {
  Table table;
  table.headers = {"case", "time ratio", "change", "baseline median [p10, p90]", "new median [p10, p90]",
                   "throughput", "runs' spread", "verdict"};
  for (const PerfChange *change : changes) AddRow(&table, PerfRow(*change), max_rows);
  return table;
}

std::vector<const PerfChange *> WithVerdict(const Comparison &comparison, PerfVerdict verdict) {
  std::vector<const PerfChange *> changes;
  for (const PerfChange &change : comparison.perf) {
    if (change.verdict == verdict) changes.push_back(&change);
  }
  return changes;
}

Section PerformanceSection(const Comparison &comparison, const DocumentOptions &options) {
  const size_t max_rows = options.max_rows;
  Section section{"Performance", {}};
  std::string summary = CountOf(comparison.perf.size(), "perf case") + " timed in both reports: " +
                        CountOf(comparison.CountOf(PerfVerdict::kSlowdown), "slowdown") + ", " +
                        CountOf(comparison.CountOf(PerfVerdict::kSpeedup), "speedup") + ", " +
                        std::to_string(comparison.CountOf(PerfVerdict::kUnchanged)) + " unchanged, " +
                        std::to_string(comparison.CountOf(PerfVerdict::kNoise)) + " noise";
  if (comparison.perf_overall) summary += "; geometric mean of the time ratios " + FormatRatio(comparison.perf_overall->geomean_ratio);
  if (comparison.perf_untimed > 0) summary += "; " + std::to_string(comparison.perf_untimed) + " untimed on one side";
  section.blocks.push_back(Paragraph(
      summary + ". Judged against " + BaselineCount(comparison) + ". A slowdown is a median time ratio above 1 + " +
      FormatThreshold(comparison.threshold) +
      " that also exceeds the runs' spread: the new median beyond the slowest baseline median by the spread between "
      "the baselines' medians, the new p10 above the baselines' highest p90 by the new run's own p90 / p10, and the "
      "median moved by 10 µs or more; noise is a change beyond the threshold within that spread."));
  if (comparison.perf.empty()) return section;

  Table groups;
  groups.headers = {"suite.subject", "cases", "geomean time ratio", "slowdowns", "speedups"};
  for (const PerfGroup &group : comparison.perf_groups) {
    const CellStyle style = group.slowdowns > 0 ? CellStyle::kWorse : group.speedups > 0 ? CellStyle::kBetter
                                                                                          : CellStyle::kNumber;
    AddRow(&groups,
           {{group.group}, Number(std::to_string(group.compared)), {FormatRatio(group.geomean_ratio), style},
            Number(std::to_string(group.slowdowns)), Number(std::to_string(group.speedups))},
           max_rows);
  }
  section.blocks.push_back(TableBlock(std::move(groups)));

  const std::vector<const PerfChange *> slowdowns = WithVerdict(comparison, PerfVerdict::kSlowdown);
  std::vector<const PerfChange *> speedups = WithVerdict(comparison, PerfVerdict::kSpeedup);
  std::reverse(speedups.begin(), speedups.end());  // the fastest first
  const std::vector<const PerfChange *> noise = WithVerdict(comparison, PerfVerdict::kNoise);
  if (!slowdowns.empty()) {
    section.blocks.push_back(Paragraph("Slowdowns, largest first:"));
    section.blocks.push_back(TableBlock(PerfTable(slowdowns, max_rows)));
  }
  if (!speedups.empty()) {
    section.blocks.push_back(Paragraph("Speedups, largest first:"));
    section.blocks.push_back(TableBlock(PerfTable(speedups, max_rows)));
  }
  if (!noise.empty()) {
    section.blocks.push_back(Paragraph("Changes beyond the threshold that the runs' spread cannot tell from noise:"));
    section.blocks.push_back(TableBlock(PerfTable(noise, max_rows)));
  }
  if (options.every_perf_case) {
    std::vector<const PerfChange *> every;
    for (const PerfChange &change : comparison.perf) every.push_back(&change);
    section.blocks.push_back(Paragraph("Every perf case timed in both, slowest ratio first:"));
    section.blocks.push_back(TableBlock(PerfTable(every, max_rows)));
  }
  return section;
}

}  // namespace

Document BuildDocument(const Comparison &comparison, const DocumentOptions &options) {
  Document document;
  document.title = "infinicts compare";
  const std::string tally = RegressionTally(comparison);
  document.regression = !tally.empty();
  document.verdict = document.regression ? "Regression: " + tally + "." : "No regression.";
  document.sections.push_back(RunsSection(comparison));
  document.sections.push_back(ConformanceSection(comparison, options.max_rows));
  document.sections.push_back(AccuracySection(comparison, options.max_rows));
  document.sections.push_back(PerformanceSection(comparison, options));
  return document;
}

}  // namespace infinicts::regression
