#include <gtest/gtest.h>

#include "report/report.h"
#include "report/report_schema.h"
#include "report/roofline.h"

namespace infinicts::report {
namespace {

using nlohmann::json;

CaseResult Perf(const std::string &suite, const std::string &subject, const std::string &test, json params,
                json metrics, Status status = Status::kPass) {
  CaseResult result;
  result.suite = suite;
  result.subject = subject;
  result.mode = "perf";
  result.id = suite + "." + subject + ".perf/" + test;
  result.status = status;
  result.params = std::move(params);
  result.metrics = std::move(metrics);
  return result;
}

// A run on a device whose measured peaks are 100 GB/s and 1000 / 200 GFLOPS (f16 / f32).
std::vector<CaseResult> SyntheticRun() {
  return {
      // A copy reads and writes every byte: copying at 50 GB/s is 100 GB/s of memory traffic.
      Perf("rt", "memory", "copy/d2d/small", {{"kind", "d2d"}}, {{"gbytes_per_s", 30.0}}),
      Perf("rt", "memory", "copy/d2d/large", {{"kind", "d2d"}}, {{"gbytes_per_s", 50.0}}),
      Perf("rt", "memory", "copy/d2d/failed", {{"kind", "d2d"}}, {{"gbytes_per_s", 900.0}}, Status::kFail),
      Perf("rt", "memory", "copy/h2d", {{"kind", "h2d"}}, {{"gbytes_per_s", 30.0}}),
      Perf("op", "gemm", "f16/a", {{"dtype", "f16"}}, {{"gflops", 800.0}, {"arithmetic_intensity_flops_per_byte", 100.0}}),
      Perf("op", "gemm", "f16/b", {{"dtype", "f16"}}, {{"gflops", 1000.0}, {"arithmetic_intensity_flops_per_byte", 200.0}}),
      Perf("op", "gemm", "f32/a", {{"dtype", "f32"}}, {{"gflops", 200.0}, {"arithmetic_intensity_flops_per_byte", 50.0}}),
      Perf("op", "gemm", "bf16/slow", {{"dtype", "bf16"}}, {{"gflops", nullptr}}),
      Perf("op", "add", "f16", {{"dtype", "f16"}}, {{"gflops", 5.0}, {"arithmetic_intensity_flops_per_byte", 0.25}}),
      Perf("op", "rms_norm", "bf16", {{"dtype", "bf16"}}, {{"gflops", 50.0}, {"arithmetic_intensity_flops_per_byte", 10.0}}),
      Perf("op", "swiglu", "f16", {{"dtype", "f16"}}, {{"gflops", 4.0}, {"flops", 300.0}, {"bytes", 1200.0}}),
      Perf("ccl", "all_reduce", "f32", {{"dtype", "f32"}}, {{"busbw_gbytes_per_s", 50.0}, {"gbytes_per_s", 25.0}}),
  };
}

const CaseResult &ById(const std::vector<CaseResult> &results, const std::string &id) {
  for (const CaseResult &result : results) {
    if (result.id == id) return result;
  }
  throw std::runtime_error("no result " + id);
}

TEST(Roofline, TheBandwidthPeakIgnoresCopiesThatFitInACache) {
  const double mib = 1024.0 * 1024.0;
  const std::vector<Peak> peaks = MeasuredPeaks({
      Perf("rt", "memory", "copy/d2d/256k", {{"kind", "d2d"}, {"bytes", 256 * 1024.0}}, {{"gbytes_per_s", 300.0}}),
      Perf("rt", "memory", "copy/d2d/64m", {{"kind", "d2d"}, {"bytes", 64 * mib}}, {{"gbytes_per_s", 40.0}}),
      Perf("rt", "memory", "copy/d2d/1g", {{"kind", "d2d"}, {"bytes", 1024 * mib}}, {{"gbytes_per_s", 45.0}}),
  });
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_EQ(peaks[0].name, "bandwidth");
  EXPECT_EQ(peaks[0].case_id, "rt.memory.perf/copy/d2d/1g");
  // The small copy measured a cache: its own roof, for the points that ran in one.
  EXPECT_EQ(peaks[1].name, "bandwidth:cache");
  EXPECT_DOUBLE_EQ(peaks[1].value, 600.0);
  EXPECT_EQ(peaks[1].case_id, "rt.memory.perf/copy/d2d/256k");
  // With only small copies, the largest one made stands for the memory.
  const std::vector<Peak> small = MeasuredPeaks({
      Perf("rt", "memory", "copy/d2d/4k", {{"kind", "d2d"}, {"bytes", 4096.0}}, {{"gbytes_per_s", 90.0}}),
      Perf("rt", "memory", "copy/d2d/1m", {{"kind", "d2d"}, {"bytes", mib}}, {{"gbytes_per_s", 70.0}}),
  });
  ASSERT_EQ(small.size(), 2u);
  EXPECT_EQ(small[0].case_id, "rt.memory.perf/copy/d2d/1m");
  EXPECT_EQ(small[1].case_id, "rt.memory.perf/copy/d2d/4k");
}

// A point above the memory's roof ran in a cache: held to the cache's roof; a point above
// every roof is flagged, never left standing above its roof unmarked.
TEST(Roofline, NoPointStaysAboveItsRoofUnflagged) {
  const double mib = 1024.0 * 1024.0;
  std::vector<CaseResult> run = {
      Perf("rt", "memory", "copy/d2d/256k", {{"kind", "d2d"}, {"bytes", 256 * 1024.0}}, {{"gbytes_per_s", 300.0}}),
      Perf("rt", "memory", "copy/d2d/64m", {{"kind", "d2d"}, {"bytes", 64 * mib}}, {{"gbytes_per_s", 50.0}}),
      Perf("op", "gemm", "f32", {{"dtype", "f32"}}, {{"gflops", 1000.0}, {"arithmetic_intensity_flops_per_byte", 50.0}}),
      // 0.25 flop/byte: 25 GFLOPS under the memory's 100 GB/s, 150 under the cache's 600.
      Perf("op", "add", "in_memory", {{"dtype", "f32"}}, {{"gflops", 20.0}, {"arithmetic_intensity_flops_per_byte", 0.25}}),
      Perf("op", "add", "in_cache", {{"dtype", "f32"}}, {{"gflops", 90.0}, {"arithmetic_intensity_flops_per_byte", 0.25}}),
      Perf("op", "add", "beyond", {{"dtype", "f32"}}, {{"gflops", 400.0}, {"arithmetic_intensity_flops_per_byte", 0.25}}),
      Perf("rt", "memory", "copy/h2d/fast", {{"kind", "h2d"}}, {{"gbytes_per_s", 150.0}}),
  };
  const std::vector<Peak> peaks = MeasuredPeaks(run);
  const auto metrics = [&](const std::string &id) { return RooflineMetrics(ById(run, id), peaks, "measured"); };
  const json memory = metrics("op.add.perf/in_memory");
  EXPECT_DOUBLE_EQ(memory["roof_gflops"].get<double>(), 25.0);
  EXPECT_FALSE(memory.contains("roof_level_cache"));
  EXPECT_FALSE(memory.contains("above_roof"));
  const json cache = metrics("op.add.perf/in_cache");
  EXPECT_DOUBLE_EQ(cache["roof_gflops"].get<double>(), 150.0);
  EXPECT_DOUBLE_EQ(cache["roof_fraction"].get<double>(), 0.6);
  EXPECT_EQ(cache["roof_level_cache"], 1);
  EXPECT_FALSE(cache.contains("above_roof"));
  const json beyond = metrics("op.add.perf/beyond");
  EXPECT_EQ(beyond["above_roof"], 1) << beyond.dump();
  EXPECT_GT(beyond["roof_fraction"].get<double>(), 1.0);
  // A copy beyond the memory's bandwidth: the cache's holds it.
  const json fast = metrics("rt.memory.perf/copy/h2d/fast");
  EXPECT_DOUBLE_EQ(fast["roof_fraction"].get<double>(), 0.25);
  EXPECT_EQ(fast["roof_level_cache"], 1);
  for (const CaseResult &result : run) {
    const json m = metrics(result.id);
    if (m.contains("roof_fraction") && m["roof_fraction"].get<double>() > 1.02) {
      EXPECT_TRUE(m.contains("above_roof")) << result.id << " stands above its roof unflagged";
    }
  }
}

TEST(Roofline, MeasuredPeaksComeFromPassingD2dCopiesAndGemms) {
  const std::vector<Peak> peaks = MeasuredPeaks(SyntheticRun());
  ASSERT_EQ(peaks.size(), 3u);
  EXPECT_EQ(peaks[0].name, "bandwidth");
  EXPECT_DOUBLE_EQ(peaks[0].value, 100.0);
  EXPECT_EQ(peaks[0].unit, "gbytes_per_s");
  EXPECT_EQ(peaks[0].source, "measured");
  EXPECT_EQ(peaks[0].case_id, "rt.memory.perf/copy/d2d/large");
  EXPECT_EQ(peaks[1].name, "compute:f16");
  EXPECT_DOUBLE_EQ(peaks[1].value, 1000.0);
  EXPECT_EQ(peaks[1].case_id, "op.gemm.perf/f16/b");
  EXPECT_EQ(peaks[2].name, "compute:f32");
  EXPECT_DOUBLE_EQ(peaks[2].value, 200.0);
  EXPECT_TRUE(MeasuredPeaks({}).empty());
}

TEST(Roofline, EachPerfResultIsHeldAgainstItsRoof) {
  const std::vector<CaseResult> run = SyntheticRun();
  const std::vector<Peak> peaks = MeasuredPeaks(run);
  const auto metrics = [&](const std::string &id) { return RooflineMetrics(ById(run, id), peaks, "measured"); };

  // Memory-bound: 0.25 flop/byte x 100 GB/s = 25 GFLOPS under the 1000 of f16.
  json add = metrics("op.add.perf/f16");
  EXPECT_DOUBLE_EQ(add["roof_gflops"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(add["roof_fraction"].get<double>(), 0.2);
  // bf16 has no measured peak: f32's 200 holds, under 10 x 100.
  json norm = metrics("op.rms_norm.perf/bf16");
  EXPECT_DOUBLE_EQ(norm["roof_gflops"].get<double>(), 200.0);
  EXPECT_DOUBLE_EQ(norm["roof_fraction"].get<double>(), 0.25);
  // Intensity from flops and bytes: 0.25 again.
  EXPECT_DOUBLE_EQ(metrics("op.swiglu.perf/f16")["roof_fraction"].get<double>(), 4.0 / 25.0);
  // The best gemm is its own roof; a slower one reaches a part of it.
  EXPECT_DOUBLE_EQ(metrics("op.gemm.perf/f16/b")["roof_fraction"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(metrics("op.gemm.perf/f16/a")["roof_fraction"].get<double>(), 0.8);
  EXPECT_TRUE(metrics("op.gemm.perf/bf16/slow").empty()) << "no finite rate, no roof";
  // Bandwidth users: against 100 GB/s; a collective by its bus bandwidth.
  EXPECT_EQ(metrics("rt.memory.perf/copy/h2d"), json({{"roof_fraction", 0.3}}));
  EXPECT_EQ(metrics("rt.memory.perf/copy/d2d/small"), json({{"roof_fraction", 0.6}}));
  EXPECT_EQ(metrics("ccl.all_reduce.perf/f32"), json({{"roof_fraction", 0.5}}));
  EXPECT_TRUE(metrics("rt.memory.perf/copy/d2d/failed").empty()) << "only passing cases";

  CaseResult conformance = ById(run, "op.add.perf/f16");
  conformance.mode = "conformance";
  EXPECT_TRUE(RooflineMetrics(conformance, peaks, "measured").empty());
  EXPECT_TRUE(RooflineMetrics(ById(run, "op.add.perf/f16"), {}, "measured").empty());
}

// A figure timed near the timer's resolution (timing.resolved false) neither sets a peak nor
// gets a roof: it says nothing about the device.
TEST(Roofline, UnresolvedTimingsAreLeftOut) {
  std::vector<CaseResult> run = SyntheticRun();
  CaseResult fast_copy = Perf("rt", "memory", "copy/d2d/unresolved", {{"kind", "d2d"}}, {{"gbytes_per_s", 5000.0}});
  fast_copy.timing = {{"method", "device_events"}, {"warmup_iterations", 2}, {"samples_ms", {0.0}}, {"resolved", false}};
  CaseResult fast_gemm = Perf("op", "gemm", "f32/unresolved", {{"dtype", "f32"}},
                              {{"gflops", 9000.0}, {"arithmetic_intensity_flops_per_byte", 50.0}});
  fast_gemm.timing = fast_copy.timing;
  run.push_back(fast_copy);
  run.push_back(fast_gemm);
  const std::vector<Peak> peaks = MeasuredPeaks(run);
  for (const Peak &peak : peaks) {
    EXPECT_NE(peak.case_id, fast_copy.id);
    EXPECT_NE(peak.case_id, fast_gemm.id);
  }
  EXPECT_TRUE(RooflineMetrics(fast_gemm, peaks, "measured").empty());
  EXPECT_TRUE(RooflineMetrics(fast_copy, peaks, "measured").empty());
  fast_gemm.timing["resolved"] = true;
  EXPECT_FALSE(RooflineMetrics(fast_gemm, peaks, "measured").empty());
}

TEST(Roofline, SpecSheetPeaksOfKnownParts) {
  const std::vector<Peak> h200 = SpecSheetPeaks("NVIDIA H200");
  ASSERT_FALSE(h200.empty());
  for (const Peak &peak : h200) {
    EXPECT_EQ(peak.source, "spec_sheet");
    EXPECT_EQ(peak.part, "NVIDIA H200 SXM");
    EXPECT_TRUE(peak.case_id.empty());
  }
  const auto value = [](const std::vector<Peak> &peaks, const std::string &name) {
    for (const Peak &peak : peaks) {
      if (peak.name == name) return peak.value;
    }
    return -1.0;
  };
  EXPECT_DOUBLE_EQ(value(h200, "bandwidth"), 4800);
  EXPECT_DOUBLE_EQ(value(h200, "compute:f16"), 989e3);
  EXPECT_DOUBLE_EQ(value(h200, "compute:bf16"), 989e3);
  EXPECT_DOUBLE_EQ(value(h200, "compute:tf32"), 494e3);
  EXPECT_DOUBLE_EQ(value(h200, "compute:f32"), 67e3);
  const std::vector<Peak> h100 = SpecSheetPeaks("NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(value(h100, "bandwidth"), 3350);
  EXPECT_DOUBLE_EQ(value(h100, "compute:f16"), 989e3);
  const std::vector<Peak> a100 = SpecSheetPeaks("NVIDIA A100-SXM4-80GB");
  EXPECT_DOUBLE_EQ(value(a100, "bandwidth"), 2039);
  EXPECT_DOUBLE_EQ(value(a100, "compute:bf16"), 312e3);
  EXPECT_DOUBLE_EQ(value(a100, "compute:f32"), 19.5e3);
  for (const char *unknown : {"NVIDIA H100 PCIe", "NVIDIA H200 NVL", "NVIDIA A100-SXM4-40GB", "Tesla T4", ""}) {
    EXPECT_TRUE(SpecSheetPeaks(unknown).empty()) << unknown;
  }

  // Spec-sheet roofs get their own metric names.
  const CaseResult gemm = Perf("op", "gemm", "f16/x", {{"dtype", "f16"}},
                               {{"gflops", 494.5e3}, {"arithmetic_intensity_flops_per_byte", 1000.0}});
  const json spec = RooflineMetrics(gemm, h200, "spec_sheet");
  EXPECT_DOUBLE_EQ(spec["spec_roof_gflops"].get<double>(), 989e3);
  EXPECT_DOUBLE_EQ(spec["spec_roof_fraction"].get<double>(), 0.5);
  EXPECT_FALSE(spec.contains("roof_fraction"));
}

Report ReportWith(std::vector<CaseResult> results) {
  Report report;
  report.host = HostInfo::ThisMachine();
  report.backend.device_type = "nvidia";
  report.run.started = report.run.finished = IsoTimeNowUtc();
  report.run.modes = {"perf"};
  for (CaseResult &result : results) {
    result.clauses = {"X-1"};
    report.Add(std::move(result));
  }
  return report;
}

TEST(Roofline, AReportWithRooflineAndExpectationsValidates) {
  Report report = ReportWith(SyntheticRun());
  Roofline roofline;
  roofline.device = "NVIDIA H200";
  roofline.peaks = MeasuredPeaks(report.results());
  for (const Peak &peak : SpecSheetPeaks("NVIDIA H200")) roofline.peaks.push_back(peak);
  for (size_t i = 0; i < report.results().size(); ++i) {
    const json metrics = RooflineMetrics(report.results()[i], roofline.peaks, "measured");
    if (!metrics.empty()) report.MergeMetrics(i, metrics);
  }
  report.roofline = roofline;
  report.expectations = ExpectationsOutcome{"known.txt",
                                            {"op.add.perf/f16"},
                                            {"op.gemm.perf/f16/a"},
                                            {{"rt.memory.perf/copy/h2d", 2, Status::kPass}},
                                            {"ccl.all_reduce.perf/f32"}};

  const json document = json::parse(report.Serialize());
  const auto violations = ValidateReport(document);
  EXPECT_TRUE(violations.empty()) << FormatViolations(violations);
  EXPECT_EQ(document["roofline"]["device"], "NVIDIA H200");
  EXPECT_EQ(document["roofline"]["peaks"].size(), 3u + 5u);
  EXPECT_EQ(document["roofline"]["peaks"][0],
            json({{"name", "bandwidth"}, {"value", 100.0}, {"unit", "gbytes_per_s"}, {"source", "measured"},
                  {"case_id", "rt.memory.perf/copy/d2d/large"}}));
  EXPECT_EQ(document["roofline"]["peaks"][3]["part"], "NVIDIA H200 SXM");
  EXPECT_EQ(document["expectations"]["flaky"][0], json({{"id", "rt.memory.perf/copy/h2d"}, {"attempts", 2}, {"status", "pass"}}));
  // MergeMetrics re-serialized the results it changed, and kept the rest of their metrics.
  const json &add = document["results"][8];
  ASSERT_EQ(add["id"], "op.add.perf/f16");
  EXPECT_DOUBLE_EQ(add["metrics"]["roof_fraction"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(add["metrics"]["gflops"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(report.results()[8].metrics["roof_gflops"].get<double>(), 25.0);

  json broken = document;
  broken["roofline"]["peaks"][0]["source"] = "guessed";
  EXPECT_FALSE(ValidateReport(broken).empty());
  broken = document;
  broken["expectations"]["flaky"][0].erase("attempts");
  EXPECT_FALSE(ValidateReport(broken).empty());
  broken = document;
  broken["roofline"]["peaks"][0]["name"] = "speed";
  EXPECT_FALSE(ValidateReport(broken).empty());
}

TEST(Roofline, AReportWithoutThemHasNeitherKey) {
  const json document = json::parse(ReportWith({}).Serialize());
  EXPECT_FALSE(document.contains("roofline"));
  EXPECT_FALSE(document.contains("expectations"));
  EXPECT_TRUE(ValidateReport(document).empty());
}

}  // namespace
}  // namespace infinicts::report
