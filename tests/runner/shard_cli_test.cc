// End-to-end: `infinicts run --shard K/N` and `infinicts merge` against the fake suite.
#include <gtest/gtest.h>

#include <set>

#include "cli_fixture.h"

namespace infinicts {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::FakeBackendDir;
using testing_support::ReadJson;
using testing_support::RunCli;

class ShardCliTest : public testing_support::CliFixture {
 protected:
  ShardCliTest() : CliFixture("shard_") {}

  std::string Path(const std::string &name) const { return dir_ + "/" + name; }

  // `infinicts run` of the fake suite, writing `out`, then `extra`.
  CliRun Run(const std::string &out, std::vector<std::string> extra) const {
    std::vector<std::string> args = {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--quiet", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunCli(args);
  }

  static std::multiset<std::string> Ids(const json &report) {
    std::multiset<std::string> ids;
    for (const json &result : report["results"]) ids.insert(result["id"].get<std::string>());
    return ids;
  }
};

TEST_F(ShardCliTest, ThreeShardsMergedEqualOneRun) {
  const CliRun whole = Run(Path("whole.json"), {});
  ASSERT_EQ(whole.exit_code, 1) << whole.err << "(the fake suite holds a failing case)";
  const json one_run = ReadJson(Path("whole.json"));
  ExpectValid(one_run);

  std::vector<std::string> merge_args = {"merge"};
  std::multiset<std::string> shard_ids;
  for (const char *shard : {"1/3", "2/3", "3/3"}) {
    const std::string out = Path(std::string("shard") + shard[0] + ".json");
    const CliRun run = Run(out, {"--shard", shard});
    ASSERT_NE(run.exit_code, 2) << run.err;
    const json report = ReadJson(out);
    ExpectValid(report);
    EXPECT_EQ(report["run"]["shard"]["count"], 3);
    EXPECT_EQ(report["run"]["shard"]["selected"], one_run["summary"]["total"]);
    EXPECT_EQ(report["run"]["shard"]["cases"], report["results"].size());
    EXPECT_GT(report["results"].size(), 0u) << shard;
    EXPECT_EQ(report["summary"]["level_verdicts"]["minimal"], "not judged") << "a shard alone judges no level";
    const std::multiset<std::string> ids = Ids(report);
    shard_ids.insert(ids.begin(), ids.end());
    merge_args.push_back(out);
  }
  EXPECT_EQ(shard_ids, Ids(one_run)) << "every case in exactly one shard";

  // Given in another order: the order of the arguments does not matter.
  std::swap(merge_args[1], merge_args[3]);
  merge_args.insert(merge_args.end(), {"--out", Path("merged.json")});
  const CliRun merge = RunCli(merge_args);
  EXPECT_EQ(merge.exit_code, 1) << merge.err << "(the failing case fails the merged report too)";
  EXPECT_NE(merge.out.find("rt.memory.conformance/wrong_value"), std::string::npos) << merge.out;
  const json merged = ReadJson(Path("merged.json"));
  ExpectValid(merged);
  EXPECT_EQ(Ids(merged), Ids(one_run));
  json summary = merged["summary"], expected = one_run["summary"];
  EXPECT_EQ(summary, expected);
  EXPECT_EQ(merged["run"]["merged_from"].size(), 3u);
}

TEST_F(ShardCliTest, MergeRefusesWhatIsNotOneShardedRunWithExitTwo) {
  ASSERT_NE(Run(Path("a.json"), {"--shard", "1/2"}).exit_code, 2);
  ASSERT_NE(Run(Path("b.json"), {"--shard", "1/2", "--filter", "rt.memory.*"}).exit_code, 2);
  ASSERT_NE(Run(Path("plain.json"), {}).exit_code, 2);
  const std::string garbage = Path("garbage.json");
  ASSERT_EQ(std::system(("echo '{\"results\": 1' > " + garbage).c_str()), 0);
  const struct {
    std::vector<std::string> inputs;
    std::string reason;
  } refusals[] = {
      {{Path("a.json"), Path("a.json")}, "both hold shard 1/2"},
      {{Path("a.json"), Path("b.json")}, "are shards of different selections"},
      {{Path("a.json"), Path("plain.json")}, "was not run with --shard K/N"},
      {{Path("a.json"), garbage}, "not JSON"},
      {{Path("a.json"), Path("absent.json")}, "absent.json: cannot be read"},
  };
  for (const auto &refusal : refusals) {
    std::vector<std::string> args = {"merge"};
    args.insert(args.end(), refusal.inputs.begin(), refusal.inputs.end());
    args.insert(args.end(), {"--out", Path("merged.json")});
    const CliRun merge = RunCli(args);
    EXPECT_EQ(merge.exit_code, 2) << refusal.reason;
    EXPECT_NE(merge.err.find(refusal.reason), std::string::npos) << merge.err;
    EXPECT_EQ(std::count(merge.err.begin(), merge.err.end(), '\n'), 1) << "one line: " << merge.err;
  }
  EXPECT_TRUE(ReadJson(Path("merged.json")).is_null()) << "nothing written on a refusal";
}

TEST_F(ShardCliTest, ABadShardIsBadUsage) {
  for (const char *bad : {"0/2", "3/2", "two"}) {
    const CliRun run = Run(Path("bad.json"), {"--shard", bad});
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_NE(run.err.find("--shard"), std::string::npos) << run.err;
  }
}

TEST_F(ShardCliTest, AShardWithNoCaseStillWritesItsReport) {
  const CliRun run = Run(Path("tiny.json"), {"--filter", "rt.device.conformance/count_is_one", "--shard", "2/2"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const json report = ReadJson(Path("tiny.json"));
  ExpectValid(report);
  EXPECT_EQ(report["results"].size(), 0u);
  EXPECT_EQ(report["run"]["shard"]["selected"], 1);
}

}  // namespace
}  // namespace infinicts
