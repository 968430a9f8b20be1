// The noise-aware verdict of one perf case, from each source of spread.
#include <gtest/gtest.h>

#include "regression/compare_reports.h"
#include "regression/perf_verdict.h"
#include "synthetic_report.h"

namespace infinicts::regression {
namespace {

using testing::SyntheticReport;

constexpr const char *kCase = "op.add.perf/f32/n_1048576";

// The verdict on kCase between two reports, through the whole comparison.
PerfChange Judge(const SyntheticReport &base, const SyntheticReport &next, double threshold = 0.05) {
  const Comparison comparison = CompareReports(base.json(), next.json(), {"base.json", "new.json", threshold});
  EXPECT_EQ(comparison.perf.size(), 1u);
  return comparison.perf.empty() ? PerfChange{} : comparison.perf.front();
}

TEST(Quantile, InterpolatesBetweenClosestRanks) {
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2, 5}, 0.5), 3);
  EXPECT_DOUBLE_EQ(Quantile({1, 2, 3, 4, 5}, 0.1), 1.4);
  EXPECT_DOUBLE_EQ(Quantile({1, 2, 3, 4, 5}, 0.9), 4.6);
  EXPECT_DOUBLE_EQ(Quantile({7}, 0.9), 7);
}

TEST(PerfVerdict, TwiceAsSlowWithTightSpreadIsASlowdown) {
  const PerfChange change = Judge(SyntheticReport().PerfSamples(kCase, {1.00, 1.01, 0.99, 1.02, 1.00}),
                                  SyntheticReport().PerfSamples(kCase, {2.00, 2.02, 1.98, 2.01, 2.00}));
  EXPECT_EQ(change.verdict, PerfVerdict::kSlowdown);
  EXPECT_NEAR(change.ratio, 2.0, 1e-9);
  EXPECT_EQ(change.base.source, SpreadSource::kSamples);
  EXPECT_EQ(change.group, "op.add");
}

TEST(PerfVerdict, TenPercentWithinOverlappingSpreadIsNoise) {
  const PerfChange change = Judge(SyntheticReport().PerfPercentiles(kCase, 1.0, 0.8, 1.3),
                                  SyntheticReport().PerfPercentiles(kCase, 1.1, 0.9, 1.4));
  EXPECT_EQ(change.verdict, PerfVerdict::kNoise);
  EXPECT_EQ(change.next.source, SpreadSource::kPercentiles);
}

TEST(PerfVerdict, AChangeBelowTheThresholdIsUnchangedEvenWithoutOverlap) {
  // 3 % slower with bands that do not overlap: below the 5 % threshold, no slowdown.
  const PerfChange change = Judge(SyntheticReport().PerfPercentiles(kCase, 1.00, 0.999, 1.001),
                                  SyntheticReport().PerfPercentiles(kCase, 1.03, 1.029, 1.031));
  EXPECT_EQ(change.verdict, PerfVerdict::kUnchanged);
  // The same pair with a 2 % threshold is a slowdown.
  EXPECT_EQ(Judge(SyntheticReport().PerfPercentiles(kCase, 1.00, 0.999, 1.001),
                  SyntheticReport().PerfPercentiles(kCase, 1.03, 1.029, 1.031), 0.02)
                .verdict,
            PerfVerdict::kSlowdown);
}

TEST(PerfVerdict, FasterWithTightSpreadIsASpeedupAndSwappingTheReportsSwapsTheVerdict) {
  SyntheticReport slow, fast;
  slow.PerfPercentiles(kCase, 2.0, 1.9, 2.1);
  fast.PerfPercentiles(kCase, 1.0, 0.95, 1.05);
  EXPECT_EQ(Judge(slow, fast).verdict, PerfVerdict::kSpeedup);
  EXPECT_EQ(Judge(fast, slow).verdict, PerfVerdict::kSlowdown);
}

TEST(PerfVerdict, ASpeedupNeedsItsBandsApartToo) {
  EXPECT_EQ(Judge(SyntheticReport().PerfPercentiles(kCase, 1.0, 0.7, 1.4),
                  SyntheticReport().PerfPercentiles(kCase, 0.8, 0.6, 1.1))
                .verdict,
            PerfVerdict::kNoise);
}

TEST(PerfVerdict, SamplesOutrankThePercentileMetrics) {
  // The metrics claim a wide band; the samples themselves are tight and far apart.
  SyntheticReport base, next;
  base.PerfSamples(kCase, {1.0, 1.0, 1.0, 1.0});
  next.PerfSamples(kCase, {1.5, 1.5, 1.5, 1.5});
  nlohmann::json base_json = base.json(), next_json = next.json();
  base_json["results"][0]["metrics"]["time_ms_p10"] = 0.5;
  base_json["results"][0]["metrics"]["time_ms_p90"] = 2.0;
  const std::optional<TimeSpread> spread = TimeSpreadOf(base_json["results"][0]);
  ASSERT_TRUE(spread);
  EXPECT_EQ(spread->source, SpreadSource::kSamples);
  EXPECT_DOUBLE_EQ(spread->high_ms, 1.0);
  EXPECT_EQ(JudgePerf(*spread, *TimeSpreadOf(next_json["results"][0]), 0.05), PerfVerdict::kSlowdown);
}

TEST(PerfVerdict, TheCvGivesTheBandWhenOnlyTheMedianIsThere) {
  // median · (1 ± 1.28 cv): 2× with cv 5 % is far outside; 1.3× with cv 30 % is within.
  EXPECT_EQ(Judge(SyntheticReport().PerfCv(kCase, 1.0, 0.05), SyntheticReport().PerfCv(kCase, 2.0, 0.05)).verdict,
            PerfVerdict::kSlowdown);
  const PerfChange noisy =
      Judge(SyntheticReport().PerfCv(kCase, 1.0, 0.3), SyntheticReport().PerfCv(kCase, 1.3, 0.3));
  EXPECT_EQ(noisy.verdict, PerfVerdict::kNoise);
  EXPECT_EQ(noisy.base.source, SpreadSource::kCv);
  EXPECT_NEAR(noisy.base.high_ms, 1.0 + 1.2816 * 0.3, 1e-9);
}

TEST(PerfVerdict, AMedianAloneIsJudgedOnTheThreshold) {
  const PerfChange change = Judge(SyntheticReport().Case(kCase, "pass", {{"time_ms_median", 1.0}}),
                                  SyntheticReport().Case(kCase, "pass", {{"time_ms_median", 1.2}}));
  EXPECT_EQ(change.base.source, SpreadSource::kNone);
  EXPECT_EQ(change.verdict, PerfVerdict::kSlowdown);
}

TEST(PerfVerdict, CasesWithoutATimeAreCountedNotJudged) {
  const Comparison comparison =
      CompareReports(SyntheticReport().Case(kCase, "fail").json(),
                     SyntheticReport().PerfPercentiles(kCase, 1, 1, 1).json(), {"b", "n", 0.05});
  EXPECT_TRUE(comparison.perf.empty());
  EXPECT_EQ(comparison.perf_untimed, 1u);
}

TEST(PerfVerdict, TimingsNearTheTimersResolutionAreNotJudged) {
  SyntheticReport base, next;
  base.PerfSamples(kCase, {1.0, 1.0, 1.0});
  next.PerfSamples(kCase, {3.0, 3.0, 3.0});
  nlohmann::json next_json = next.json();
  for (auto &result : next_json["results"]) result["timing"]["resolved"] = false;
  const Comparison comparison = CompareReports(base.json(), next_json, {"b", "n", 0.05});
  EXPECT_TRUE(comparison.perf.empty()) << "a slowdown judged on an unresolved time";
  EXPECT_EQ(comparison.perf_untimed, 1u);
}

// The verdict on kCase between several baselines and a new report.
PerfChange JudgeAgainst(const std::vector<SyntheticReport> &baselines, const SyntheticReport &next,
                        double threshold = 0.05) {
  std::vector<const nlohmann::json *> jsons;
  CompareSettings settings{"base1.json", "new.json", threshold, {}};
  for (const SyntheticReport &baseline : baselines) jsons.push_back(&baseline.json());
  for (size_t i = 1; i < baselines.size(); ++i) settings.more_base_paths.push_back("base" + std::to_string(i + 1));
  const Comparison comparison = CompareReports(jsons, next.json(), settings);
  EXPECT_EQ(comparison.perf.size(), 1u);
  EXPECT_EQ(comparison.more_baselines.size(), baselines.size() - 1);
  return comparison.perf.empty() ? PerfChange{} : comparison.perf.front();
}

TEST(MultiBaseline, AChangeWithinTheSpreadBetweenBaselinesIsNoise) {
  // Two baselines 1.0 and 1.6 ms, each tight: the runs differ by 1.6x. A new run at 2.0 ms is
  // 1.5x their middle and clear of both bands, but within 1.6 x 1.6 of the slowest.
  const PerfChange change = JudgeAgainst({SyntheticReport().PerfPercentiles(kCase, 1.0, 0.99, 1.01),
                                          SyntheticReport().PerfPercentiles(kCase, 1.6, 1.59, 1.61)},
                                         SyntheticReport().PerfPercentiles(kCase, 2.0, 1.99, 2.01));
  EXPECT_EQ(change.verdict, PerfVerdict::kNoise);
  EXPECT_NEAR(change.ratio, 2.0 / 1.3, 1e-9);
  EXPECT_EQ(change.spread.baseline_runs, 2u);
  EXPECT_NEAR(change.spread.between_runs, 1.6, 1e-9);
  // Against the first baseline alone the same new run is a slowdown.
  EXPECT_EQ(Judge(SyntheticReport().PerfPercentiles(kCase, 1.0, 0.99, 1.01),
                  SyntheticReport().PerfPercentiles(kCase, 2.0, 1.99, 2.01))
                .verdict,
            PerfVerdict::kSlowdown);
}

TEST(MultiBaseline, BeyondTheSpreadAndTheThresholdIsASlowdown) {
  const std::vector<SyntheticReport> baselines = {SyntheticReport().PerfPercentiles(kCase, 1.0, 0.99, 1.01),
                                                  SyntheticReport().PerfPercentiles(kCase, 1.1, 1.09, 1.11),
                                                  SyntheticReport().PerfPercentiles(kCase, 1.05, 1.04, 1.06)};
  const PerfChange change = JudgeAgainst(baselines, SyntheticReport().PerfPercentiles(kCase, 1.3, 1.29, 1.31));
  EXPECT_EQ(change.verdict, PerfVerdict::kSlowdown);
  EXPECT_NEAR(change.base.median_ms, 1.05, 1e-9);  // the median of the medians
  EXPECT_NEAR(change.spread.between_runs, 1.1, 1e-9);
  EXPECT_EQ(change.spread.baseline_runs, 3u);
  // The same run beyond the spread but within a 30 % threshold: unchanged.
  EXPECT_EQ(JudgeAgainst(baselines, SyntheticReport().PerfPercentiles(kCase, 1.3, 1.29, 1.31), 0.3).verdict,
            PerfVerdict::kUnchanged);
  // A new run faster by as much is a speedup.
  EXPECT_EQ(JudgeAgainst(baselines, SyntheticReport().PerfPercentiles(kCase, 0.8, 0.79, 0.81)).verdict,
            PerfVerdict::kSpeedup);
}

TEST(MultiBaseline, ABaselineWithoutTheCaseAddsNoSpread) {
  SyntheticReport other;
  other.Case("op.add.perf/another", "pass", {{"time_ms_median", 9.0}});
  const PerfChange change = JudgeAgainst({SyntheticReport().PerfPercentiles(kCase, 1.0, 0.99, 1.01), other},
                                         SyntheticReport().PerfPercentiles(kCase, 2.0, 1.99, 2.01));
  EXPECT_EQ(change.spread.baseline_runs, 1u);
  EXPECT_EQ(change.verdict, PerfVerdict::kSlowdown);
}

// kCase's result in `report` with timing.repeat_medians_ms: as `run --repeat` writes it.
nlohmann::json WithPasses(const SyntheticReport &report, const std::vector<double> &pass_medians) {
  nlohmann::json json = report.json();
  json["results"][0]["timing"] = {{"method", "host_clock"}, {"warmup_iterations", 1},
                                  {"samples_ms", nlohmann::json::array()}, {"repeat_medians_ms", pass_medians}};
  return json;
}

Comparison CompareJsons(const nlohmann::json &base, const nlohmann::json &next, double threshold = 0.05) {
  return CompareReports(base, next, {"base.json", "new.json", threshold});
}

TEST(RepeatedPasses, TheSpreadBetweenABaselinesPassesHoldsAMovedMedian) {
  // One baseline whose three passes took 1.0, 1.6 and 1.2 ms, each tight: the machine moves
  // the case by 1.6x from pass to pass. A new run at 1.5 ms, tight, is within that.
  const SyntheticReport base = SyntheticReport().PerfPercentiles(kCase, 1.2, 1.19, 1.21);
  const SyntheticReport next = SyntheticReport().PerfPercentiles(kCase, 1.5, 1.49, 1.51);
  const Comparison repeated = CompareJsons(WithPasses(base, {1.0, 1.6, 1.2}), next.json());
  ASSERT_EQ(repeated.perf.size(), 1u);
  EXPECT_EQ(repeated.perf.front().verdict, PerfVerdict::kNoise);
  EXPECT_NEAR(repeated.perf.front().spread.between_runs, 1.6, 1e-9);
  EXPECT_EQ(repeated.perf.front().spread.baseline_passes, 3u);
  // The same baseline without its passes: a slowdown.
  EXPECT_EQ(Judge(base, next).verdict, PerfVerdict::kSlowdown);
  // A 3x slowdown is beyond the passes' spread.
  const Comparison slow =
      CompareJsons(WithPasses(base, {1.0, 1.6, 1.2}), SyntheticReport().PerfPercentiles(kCase, 3.6, 3.59, 3.61).json());
  EXPECT_EQ(slow.perf.front().verdict, PerfVerdict::kSlowdown);
}

TEST(RepeatedPasses, ANewRunIsJudgedByItsFastestPass) {
  // The new run's median pass is 2x the baseline, but one of its passes ran at the
  // baseline's time: the run could be that fast, so it is noise, not a slowdown.
  const SyntheticReport base = SyntheticReport().PerfPercentiles(kCase, 1.0, 0.99, 1.01);
  const SyntheticReport next = SyntheticReport().PerfPercentiles(kCase, 2.0, 1.99, 2.01);
  EXPECT_EQ(CompareJsons(base.json(), WithPasses(next, {2.0, 1.0, 2.1})).perf.front().verdict, PerfVerdict::kNoise);
  // Every pass twice as slow: a slowdown.
  const Comparison slow = CompareJsons(base.json(), WithPasses(next, {2.0, 1.95, 2.1}));
  EXPECT_EQ(slow.perf.front().verdict, PerfVerdict::kSlowdown);
  // And, swapped, a speedup judged by the slowest pass.
  EXPECT_EQ(CompareJsons(WithPasses(next, {2.0, 1.95, 2.1}), base.json()).perf.front().verdict,
            PerfVerdict::kSpeedup);
  EXPECT_EQ(CompareJsons(next.json(), WithPasses(base, {1.0, 2.0, 0.99})).perf.front().verdict, PerfVerdict::kNoise);
}

TEST(SingleBaseline, ARunWideWithinItselfIsNotASlowdownOnNoiseAlone) {
  // The new run's samples spread 0.15 to 2 ms (a descheduled thread, a busy core), its
  // median 0.25 ms. Its p10 is 2x the baseline's p90, but the run is 13x wide within
  // itself: noise, whatever the threshold.
  const PerfChange noisy = Judge(SyntheticReport().PerfPercentiles(kCase, 0.0676, 0.0646, 0.0746),
                                 SyntheticReport().PerfPercentiles(kCase, 0.252, 0.15, 2.02), 0.05);
  EXPECT_EQ(noisy.verdict, PerfVerdict::kNoise);
  EXPECT_NEAR(noisy.spread.within_run, 2.02 / 0.15, 1e-9);
  // A 10x slowdown with a run as wide as the baseline's is caught.
  const PerfChange slow = Judge(SyntheticReport().PerfPercentiles(kCase, 0.3, 0.25, 0.4),
                                SyntheticReport().PerfPercentiles(kCase, 3.0, 2.5, 4.0), 2.2);
  EXPECT_EQ(slow.verdict, PerfVerdict::kSlowdown);
  EXPECT_NEAR(slow.spread.within_run, 1.6, 1e-9);
  EXPECT_EQ(slow.spread.between_runs, 1.0);
}

TEST(SingleBaseline, AChangeOfAFewMicrosecondsIsNotASlowdown) {
  // 0.86 µs -> 4.8 µs with tight bands, as an identical run of a 1 µs Add once measured:
  // below the 10 µs floor, noise. The same ratio 100 times longer is a slowdown.
  EXPECT_EQ(Judge(SyntheticReport().PerfPercentiles(kCase, 0.000857, 0.00075, 0.00111),
                  SyntheticReport().PerfPercentiles(kCase, 0.00476, 0.0039, 0.00574), 2.2)
                .verdict,
            PerfVerdict::kNoise);
  EXPECT_EQ(Judge(SyntheticReport().PerfPercentiles(kCase, 0.0857, 0.075, 0.111),
                  SyntheticReport().PerfPercentiles(kCase, 0.476, 0.39, 0.574), 2.2)
                .verdict,
            PerfVerdict::kSlowdown);
}

TEST(PerfSummary, GeometricMeanPerSuiteAndSubject) {
  SyntheticReport base, next;
  base.PerfPercentiles("op.add.perf/a", 1.0, 1.0, 1.0).PerfPercentiles("op.add.perf/b", 1.0, 1.0, 1.0);
  next.PerfPercentiles("op.add.perf/a", 4.0, 4.0, 4.0).PerfPercentiles("op.add.perf/b", 0.25, 0.25, 0.25);
  base.PerfPercentiles("op.mul.perf/a", 1.0, 1.0, 1.0);
  next.PerfPercentiles("op.mul.perf/a", 2.0, 2.0, 2.0);
  const Comparison comparison = CompareReports(base.json(), next.json(), {"b", "n", 0.05});
  ASSERT_EQ(comparison.perf_groups.size(), 2u);
  EXPECT_EQ(comparison.perf_groups[0].group, "op.add");
  EXPECT_NEAR(comparison.perf_groups[0].geomean_ratio, 1.0, 1e-12);
  EXPECT_EQ(comparison.perf_groups[0].slowdowns, 1u);
  EXPECT_EQ(comparison.perf_groups[0].speedups, 1u);
  EXPECT_EQ(comparison.perf_groups[1].group, "op.mul");
  EXPECT_NEAR(comparison.perf_groups[1].geomean_ratio, 2.0, 1e-12);
  ASSERT_TRUE(comparison.perf_overall);
  EXPECT_NEAR(comparison.perf_overall->geomean_ratio, std::cbrt(2.0), 1e-12);
  // Slowest first.
  EXPECT_EQ(comparison.perf.front().id, "op.add.perf/a");
  EXPECT_EQ(comparison.perf.back().id, "op.add.perf/b");
  EXPECT_EQ(comparison.Regressions(), 2u);
}

}  // namespace
}  // namespace infinicts::regression
