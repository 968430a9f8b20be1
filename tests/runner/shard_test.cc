// --shard K/N: parsing, the expected durations and the split (runner/shard.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "runner/shard.h"

namespace infinicts::runner {
namespace {

cts::ListedCase Listed(const std::string &id) {
  cts::ListedCase listed;
  listed.id = id;
  const std::string head = id.substr(0, id.find('/'));
  listed.suite = head.substr(0, head.find('.'));
  listed.subject = head.substr(head.find('.') + 1, head.rfind('.') - head.find('.') - 1);
  listed.mode = head.substr(head.rfind('.') + 1);
  return listed;
}

TEST(Shard, ParsesKOfN) {
  ShardSpec shard;
  std::string error;
  ASSERT_TRUE(ParseShard("2/3", &shard, &error)) << error;
  EXPECT_EQ(shard.index, 2);
  EXPECT_EQ(shard.count, 3);
  ASSERT_TRUE(ParseShard("1/1", &shard, &error)) << error;
  for (const char *bad : {"0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/", "/2", "1/5000", "1/2/3", " 1/2", "1.0/2"}) {
    EXPECT_FALSE(ParseShard(bad, &shard, &error)) << bad;
    EXPECT_NE(error.find("--shard"), std::string::npos) << error;
  }
}

TEST(Shard, TheTestOfAnIdIsTheIdUpToItsParameters) {
  EXPECT_EQ(TestOfId("op.gemm.accuracy/matches_oracle/f16/m1_n1_k1"), "op.gemm.accuracy/matches_oracle");
  EXPECT_EQ(TestOfId("rt.device.conformance/count"), "rt.device.conformance/count");
  EXPECT_EQ(TestOfId("rt.device.conformance"), "rt.device.conformance");
}

TEST(Shard, AnUnknownTestTakesTheMeanOfItsSubjectThenSuiteThenEverything) {
  const DurationModel model(nlohmann::json{{"tests",
                                            {{"op.gemm.accuracy/matches_oracle", 10},
                                             {"op.gemm.accuracy/strided", 30},
                                             {"op.add.accuracy/matches_oracle", 110},
                                             {"rt.memory.perf/copy", 250}}}});
  EXPECT_EQ(model.ExpectedMs(Listed("op.gemm.accuracy/matches_oracle/f16")), 10);
  EXPECT_EQ(model.ExpectedMs(Listed("op.gemm.accuracy/new_test/f16")), 20);
  EXPECT_EQ(model.ExpectedMs(Listed("op.relu.accuracy/matches_oracle/f16")), 50);
  EXPECT_EQ(model.ExpectedMs(Listed("ccl.all_reduce.conformance/exact/f32")), 100);
  EXPECT_THROW(DurationModel(nlohmann::json{{"durations", 1}}), nlohmann::json::exception);
}

TEST(Shard, TheBuiltInTableTellsLongTestsFromShortOnes) {
  const DurationModel &model = DurationModel::BuiltIn();
  const double gemm_perf = model.ExpectedMs(Listed("op.gemm.perf/timed/f16/llama2_7b_qkv_m16"));
  EXPECT_GT(gemm_perf, 100 * model.ExpectedMs(Listed("rt.device.conformance/set_get_round_trip")));
  EXPECT_GT(gemm_perf, 10 * model.ExpectedMs(Listed("ccl.all_reduce.conformance/exact/f32/sum/n1")));
}

// Cases of unequal expected durations, from a table of a few tests.
struct Selection {
  DurationModel model{nlohmann::json{{"tests",
                                      {{"op.gemm.perf/llm", 900},
                                       {"op.gemm.accuracy/matches_oracle", 40},
                                       {"rt.memory.conformance/memcpy", 3},
                                       {"ccl.all_reduce.conformance/exact", 120}}}}};
  std::vector<cts::ListedCase> cases;
  Selection() {
    for (int i = 0; i < 7; ++i) cases.push_back(Listed("op.gemm.perf/llm/shape_" + std::to_string(i)));
    for (int i = 0; i < 90; ++i) cases.push_back(Listed("op.gemm.accuracy/matches_oracle/case_" + std::to_string(i)));
    for (int i = 0; i < 400; ++i) cases.push_back(Listed("rt.memory.conformance/memcpy/bytes_" + std::to_string(i)));
    for (int i = 0; i < 33; ++i) cases.push_back(Listed("ccl.all_reduce.conformance/exact/n" + std::to_string(i)));
  }
  std::vector<const cts::ListedCase *> Pointers() const {
    std::vector<const cts::ListedCase *> pointers;
    for (const cts::ListedCase &listed : cases) pointers.push_back(&listed);
    return pointers;
  }
};

TEST(Shard, EveryCaseGoesToOneShardAndTheShardsFinishTogether) {
  const Selection selection;
  double longest = 0;
  for (const cts::ListedCase &listed : selection.cases) longest = std::max(longest, selection.model.ExpectedMs(listed));
  for (int count : {1, 2, 3, 5, 8}) {
    const std::vector<int> shard_of = AssignShards(selection.Pointers(), count, selection.model);
    ASSERT_EQ(shard_of.size(), selection.cases.size());
    std::vector<double> load(count + 1, 0);
    for (size_t i = 0; i < shard_of.size(); ++i) {
      ASSERT_GE(shard_of[i], 1);
      ASSERT_LE(shard_of[i], count);
      load[shard_of[i]] += selection.model.ExpectedMs(selection.cases[i]);
    }
    const auto [lightest, heaviest] = std::minmax_element(load.begin() + 1, load.end());
    EXPECT_LE(*heaviest - *lightest, longest) << count << " shards";
  }
}

TEST(Shard, ALongCaseWeighsAsMuchAsManyShortOnes) {
  const DurationModel model(nlohmann::json{{"tests", {{"op.gemm.perf/llm", 1000}, {"rt.memory.conformance/memcpy", 10}}}});
  std::vector<cts::ListedCase> cases = {Listed("op.gemm.perf/llm/one")};
  for (int i = 0; i < 100; ++i) cases.push_back(Listed("rt.memory.conformance/memcpy/bytes_" + std::to_string(i)));
  std::vector<const cts::ListedCase *> pointers;
  for (const cts::ListedCase &listed : cases) pointers.push_back(&listed);
  const std::vector<int> shard_of = AssignShards(pointers, 2, model);
  EXPECT_EQ(std::count(shard_of.begin(), shard_of.end(), shard_of[0]), 1) << "the long case alone in its shard";
}

TEST(Shard, TheSplitDependsOnTheSelectionNotItsOrder) {
  const Selection selection;
  const std::vector<int> in_order = AssignShards(selection.Pointers(), 3, selection.model);
  std::map<std::string, int> expected;
  for (size_t i = 0; i < in_order.size(); ++i) expected[selection.cases[i].id] = in_order[i];
  std::vector<const cts::ListedCase *> shuffled = selection.Pointers();
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
  const std::vector<int> again = AssignShards(shuffled, 3, selection.model);
  for (size_t i = 0; i < shuffled.size(); ++i) EXPECT_EQ(again[i], expected[shuffled[i]->id]) << shuffled[i]->id;
}

TEST(Shard, MoreShardsThanCasesLeavesSomeEmpty) {
  const cts::ListedCase one = Listed("rt.device.conformance/count");
  const std::vector<int> shard_of = AssignShards({&one}, 4, DurationModel::BuiltIn());
  ASSERT_EQ(shard_of.size(), 1u);
  EXPECT_EQ(shard_of[0], 1);
}

}  // namespace
}  // namespace infinicts::runner
