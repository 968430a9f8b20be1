// `infinicts merge`'s joining (report/merge_reports.h), on reports built in memory.
#include <gtest/gtest.h>

#include "report/merge_reports.h"
#include "report/report_schema.h"

namespace infinicts::report {
namespace {

using nlohmann::json;

CaseResult Result(const std::string &suite, const std::string &subject, Status status, const std::string &test) {
  CaseResult result;
  result.suite = suite;
  result.subject = subject;
  result.mode = "conformance";
  result.id = suite + "." + subject + ".conformance/" + test;
  result.status = status;
  result.message = status == Status::kPass ? "" : "RT-X-1: wrong";
  return result;
}

// A selection that reaches neither level alone: it lacks parts, but is otherwise whole.
std::vector<CaseResult> Selection() {
  return {Result("rt", "device", Status::kPass, "count"), Result("rt", "stream", Status::kPass, "create"),
          Result("rt", "memory", Status::kFail, "memcpy"), Result("rt", "guard", Status::kPass, "exchange"),
          Result("op", "gemm", Status::kPass, "exact"),    Result("op", "add", Status::kPass, "exact")};
}

std::vector<std::string> Ids(const std::vector<CaseResult> &results) {
  std::vector<std::string> ids;
  for (const CaseResult &result : results) ids.push_back(result.id);
  return ids;
}

// The report of shard `index` of `count`, holding the cases at the positions given.
ShardReport Shard(int index, int count, const std::vector<size_t> &positions) {
  const std::vector<CaseResult> selection = Selection();
  Report report;
  report.tool.version = "1.0";
  report.tool.git = "abc123";
  report.host = {"Linux", "Test CPU " + std::to_string(index), 2, 1 << 30};
  report.backend = {{"/opt/backend/libinfinirt.so", "/opt/backend/libinfiniop.so"}, "cpu", {0, 1}, 2,
                    {"infinirtMalloc"}, {}};
  report.run.started = "2026-12-02T10:0" + std::to_string(index) + ":00Z";
  report.run.finished = "2026-12-02T10:1" + std::to_string(index) + ":00Z";
  report.run.argv = {"infinicts", "run", "--shard", std::to_string(index) + "/" + std::to_string(count)};
  report.run.suites = {"rt", "op"};
  report.run.modes = {"conformance", "accuracy"};
  report.run.complete = true;
  ShardInfo shard{index, count, positions.size(), selection.size(), SelectionDigest(Ids(selection))};
  report.run.shard = shard;
  report.run.narrowed = {"the run left out the ccl suite(s)", ShardNarrowing(shard)};
  // The op cases first, as a shard of another balance could hold them.
  for (bool op : {true, false}) {
    for (size_t position : positions) {
      if ((selection[position].suite == "op") != op) continue;
      CaseResult result = selection[position];
      result.selection_index = position;
      report.Add(std::move(result));
    }
  }
  return {"shard" + std::to_string(index) + ".json", json::parse(report.Serialize())};
}

json Joined(const std::vector<ShardReport> &shards) {
  Report merged;
  std::string error;
  EXPECT_TRUE(MergeShardReports(shards, {"infinicts", "merge"}, &merged, &error)) << error;
  json joined = json::parse(merged.Serialize());
  const auto violations = ValidateReport(joined);
  EXPECT_TRUE(violations.empty()) << FormatViolations(violations);
  return joined;
}

std::string Refusal(const std::vector<ShardReport> &shards) {
  Report merged;
  std::string error;
  EXPECT_FALSE(MergeShardReports(shards, {"infinicts", "merge"}, &merged, &error));
  return error;
}

TEST(Merge, EveryShardGivesTheReportOfOneRun) {
  Report whole;
  whole.backend = {{"libinfinirt.so"}, "cpu", {0, 1}, 2, {"infinirtMalloc"}, {}};
  whole.run.suites = {"rt", "op"};
  whole.run.modes = {"conformance", "accuracy"};
  whole.run.complete = true;
  whole.run.narrowed = {"the run left out the ccl suite(s)"};
  for (const CaseResult &result : Selection()) whole.Add(result);
  const json expected = json::parse(whole.Serialize());

  const json joined = Joined({Shard(2, 3, {1, 4}), Shard(1, 3, {0, 3}), Shard(3, 3, {2, 5})});
  EXPECT_EQ(joined["summary"], expected["summary"]);
  std::vector<std::string> ids;
  for (const json &result : joined["results"]) {
    ids.push_back(result["id"]);
    EXPECT_FALSE(result.contains("selection_index")) << "a shard's places stay out of the joined report";
  }
  EXPECT_EQ(ids, Ids(Selection())) << "the order of one run";
  EXPECT_EQ(joined["run"]["narrowed"], json({"the run left out the ccl suite(s)"}));
  EXPECT_TRUE(joined["run"]["complete"]);
  EXPECT_FALSE(joined["run"].contains("shard"));
  EXPECT_EQ(joined["run"]["started"], "2026-12-02T10:01:00Z");
  EXPECT_EQ(joined["run"]["finished"], "2026-12-02T10:13:00Z");
  EXPECT_EQ(joined["run"]["argv"], json({"infinicts", "merge"}));
  ASSERT_EQ(joined["run"]["merged_from"].size(), 3u);
  EXPECT_EQ(joined["run"]["merged_from"][0]["file"], "shard1.json");
  EXPECT_EQ(joined["run"]["merged_from"][2]["host"], "Test CPU 3");
  EXPECT_EQ(joined["tool"]["git"], "abc123") << "the shards' build, not the merging one's";
}

TEST(Merge, WithoutTheirPlacesTheCasesComeInSuiteOrderThenShardOrder) {
  std::vector<ShardReport> shards = {Shard(1, 3, {0, 3}), Shard(2, 3, {1, 4}), Shard(3, 3, {2, 5})};
  for (ShardReport &shard : shards) {
    for (json &result : shard.json["results"]) result.erase("selection_index");
  }
  const json joined = Joined(shards);
  std::vector<std::string> ids;
  for (const json &result : joined["results"]) ids.push_back(result["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"rt.device.conformance/count", "rt.guard.conformance/exchange",
                                           "rt.stream.conformance/create", "rt.memory.conformance/memcpy",
                                           "op.gemm.conformance/exact", "op.add.conformance/exact"}));
}

TEST(Merge, AMissingShardLeavesTheLevelsUnjudgedAndSaysWhich) {
  const json joined = Joined({Shard(1, 3, {0, 3}), Shard(3, 3, {2, 5})});
  EXPECT_EQ(joined["summary"]["total"], 4);
  EXPECT_FALSE(joined["run"]["complete"]);
  EXPECT_EQ(joined["run"]["narrowed"][1], "the merged reports hold 4 of the 6 selected cases: shard(s) 2/3 missing");
  EXPECT_EQ(joined["summary"]["level_verdicts"]["minimal"], "not judged");
}

TEST(Merge, AShardAloneJudgesNoLevel) {
  const json shard = Shard(1, 1, {0, 1, 2, 3, 4, 5}).json;
  EXPECT_EQ(shard["summary"]["level_verdicts"]["minimal"], "not judged");
  const json joined = Joined({Shard(1, 1, {0, 1, 2, 3, 4, 5})});
  EXPECT_NE(joined["summary"]["levels_detail"]["minimal"].dump().find("the run left out the ccl"), std::string::npos);
}

TEST(Merge, RefusesReportsThatAreNotShardsOfOneRun) {
  ShardReport overlapping = Shard(2, 3, {1, 4, 0});
  EXPECT_EQ(Refusal({Shard(1, 3, {0, 3}), overlapping}),
            "shard1.json and shard2.json overlap: both hold rt.device.conformance/count");
  EXPECT_EQ(Refusal({Shard(1, 3, {0, 3}), Shard(1, 3, {0, 3})}), "shard1.json and shard1.json both hold shard 1/3");

  ShardReport other_build = Shard(2, 3, {1, 4});
  other_build.json["tool"]["git"] = "def456";
  EXPECT_NE(Refusal({Shard(1, 3, {0, 3}), other_build}).find("come from different builds"), std::string::npos);
  ShardReport other_type = Shard(2, 3, {1, 4});
  other_type.json["backend"]["device_type"] = "nvidia";
  EXPECT_NE(Refusal({Shard(1, 3, {0, 3}), other_type}).find("different device types (cpu, nvidia)"), std::string::npos);
  ShardReport other_backend = Shard(2, 3, {1, 4});
  other_backend.json["backend"]["libraries"][1] = "/opt/vendor/libinfiniop_vendor.so";
  EXPECT_NE(Refusal({Shard(1, 3, {0, 3}), other_backend}).find("different backends"), std::string::npos);
  ShardReport moved = Shard(2, 3, {1, 4});
  moved.json["backend"]["libraries"][1] = "/elsewhere/libinfiniop.so";  // another machine's checkout: still one backend
  EXPECT_NO_FATAL_FAILURE(Joined({Shard(1, 3, {0, 3}), moved}));
  ShardReport other_devices = Shard(2, 3, {1, 4});
  other_devices.json["backend"]["device_ids"] = json({0});
  EXPECT_NE(Refusal({Shard(1, 3, {0, 3}), other_devices}).find("different devices"), std::string::npos);
  ShardReport other_selection = Shard(2, 3, {1, 4});
  other_selection.json["run"]["shard"]["selection"] = "0123456789abcdef";
  EXPECT_NE(Refusal({Shard(1, 3, {0, 3}), other_selection}).find("shards of different selections"), std::string::npos);
  EXPECT_NE(Refusal({Shard(1, 3, {0, 3}), Shard(2, 4, {1, 4})}).find("shards of different selections"),
            std::string::npos);
  ShardReport unsharded = Shard(2, 3, {1, 4});
  unsharded.json["run"].erase("shard");
  EXPECT_EQ(Refusal({Shard(1, 3, {0, 3}), unsharded}),
            "shard2.json was not run with --shard K/N; merge joins the reports of the shards of one run");
}

TEST(Merge, SelectionDigestIgnoresOrderAndSeesEveryId) {
  EXPECT_EQ(SelectionDigest({"a", "b"}), SelectionDigest({"b", "a"}));
  EXPECT_NE(SelectionDigest({"a", "b"}), SelectionDigest({"a", "b", "c"}));
  EXPECT_NE(SelectionDigest({"ab"}), SelectionDigest({"a", "b"}));
  EXPECT_EQ(SelectionDigest({}).size(), 16u);
}

}  // namespace
}  // namespace infinicts::report
