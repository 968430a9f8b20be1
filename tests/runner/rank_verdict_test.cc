// One verdict from the parts of a case run one rank per process (runner/rank_verdict.h).
#include <gtest/gtest.h>

#include "cts/rank_spread.h"
#include "runner/rank_verdict.h"

namespace infinicts::runner {
namespace {

using report::CaseResult;
using report::Status;

CaseResult Part(Status status, std::string message = "", double median_ms = -1, double duration_ms = 1) {
  CaseResult part;
  part.id = "ccl.all_reduce.conformance/exact/sum/f32/count_7/ranks_4/out_of_place/one_thread";
  part.status = status;
  part.message = std::move(message);
  part.duration_ms = duration_ms;
  if (median_ms >= 0) part.metrics = {{"time_ms_median", median_ms}, {"busbw_gbytes_per_s", 1.0 / median_ms}};
  return part;
}

CaseResult Outside(int rank) {
  return Part(Status::kSkip, std::string(cts::kOutsideGroupPrefix) + "rank " + std::to_string(rank) + " has no part");
}

CaseResult Stopped(const std::string &why) { return Part(Status::kBlocked, kStoppedForPeerPrefix + why); }

TEST(RankVerdict, AllPassPasses) {
  const CaseResult verdict = CombineRankParts({Part(Status::kPass), Part(Status::kPass), Part(Status::kPass)});
  EXPECT_EQ(verdict.status, Status::kPass);
  EXPECT_EQ(verdict.message, "");
}

TEST(RankVerdict, WorstRankDecidesAndIsNamed) {
  const CaseResult verdict =
      CombineRankParts({Part(Status::kPass), Part(Status::kFail, "rank 1 received 3 wrong values\n  at x.cc:1"),
                        Part(Status::kPass), Part(Status::kPass)});
  EXPECT_EQ(verdict.status, Status::kFail);
  EXPECT_EQ(verdict.message.rfind("rank 1 received 3 wrong values", 0), 0u) << verdict.message;
  EXPECT_NE(verdict.message.find("[ranks of 4] rank 1 fail"), std::string::npos) << verdict.message;
  EXPECT_EQ(verdict.message.find("rank 0 "), std::string::npos) << "a rank that passed is not named";
}

TEST(RankVerdict, CrashOutranksFailAndStoppedRanksAreSaidToBeStopped) {
  const CaseResult verdict = CombineRankParts({Stopped("rank 2's part ended crash"), Part(Status::kFail, "late"),
                                               Part(Status::kCrash, "the suite process was killed by signal 11"),
                                               Stopped("rank 2's part ended crash")});
  EXPECT_EQ(verdict.status, Status::kCrash);
  EXPECT_EQ(verdict.message.rfind("the suite process was killed by signal 11", 0), 0u) << verdict.message;
  EXPECT_NE(verdict.message.find("rank 1 fail (late)"), std::string::npos) << verdict.message;
  EXPECT_NE(verdict.message.find("rank 2 crash"), std::string::npos) << verdict.message;
  EXPECT_NE(verdict.message.find("ranks 0, 3 stopped when rank 2's part ended"), std::string::npos) << verdict.message;
}

TEST(RankVerdict, RanksOutsideTheGroupHaveNoSay) {
  const CaseResult verdict = CombineRankParts({Part(Status::kPass), Part(Status::kPass), Outside(2), Outside(3)});
  EXPECT_EQ(verdict.status, Status::kPass);
}

TEST(RankVerdict, EveryRankSkippingSkipsWithRankZerosReason) {
  const CaseResult verdict = CombineRankParts({Part(Status::kSkip, "needs 8 ranks (one per process); the run has 2"),
                                               Part(Status::kSkip, "needs 8 ranks (one per process); the run has 2")});
  EXPECT_EQ(verdict.status, Status::kSkip);
  EXPECT_EQ(verdict.message.rfind("needs 8 ranks", 0), 0u) << verdict.message;
}

TEST(RankVerdict, PerfTakesTheSlowestRanksFiguresAndTheLongestDuration) {
  const CaseResult verdict = CombineRankParts(
      {Part(Status::kPass, "", 2.0, 10), Part(Status::kPass, "", 5.0, 30), Part(Status::kPass, "", 3.0, 20)});
  EXPECT_DOUBLE_EQ(verdict.metrics["time_ms_median"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(verdict.metrics["busbw_gbytes_per_s"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(verdict.metrics["slowest_rank"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(verdict.duration_ms, 30);
}

CaseResult WithDigest(CaseResult part, const std::string &bits, bool must_agree) {
  part.metrics = nlohmann::json::object();
  part.metrics[cts::kBitsDigestMetric] = cts::BitsDigest(bits.data(), bits.size());
  part.metrics[cts::kBitsMustAgreeMetric] = must_agree ? 1.0 : 0.0;
  return part;
}

TEST(RankVerdict, RanksWhoseBitsDifferFailWhereAgreementIsRequired) {
  const CaseResult verdict = CombineRankParts({WithDigest(Part(Status::kPass), "abcd", true),
                                               WithDigest(Part(Status::kPass), "abce", true), Outside(2),
                                               WithDigest(Part(Status::kPass), "abce", true)});
  EXPECT_EQ(verdict.status, Status::kFail);
  EXPECT_EQ(verdict.message, "ranks 1, 3 received other bits than rank 0, though every rank must receive the same bits here");
  EXPECT_DOUBLE_EQ(verdict.metrics["ranks_disagreeing"].get<double>(), 2.0);
  EXPECT_FALSE(verdict.metrics.contains(cts::kBitsDigestMetric)) << "the digests stay out of the report";
  EXPECT_FALSE(verdict.metrics.contains(cts::kBitsMustAgreeMetric));
}

TEST(RankVerdict, DifferingBitsAreOnlyCountedWhereAgreementIsNotRequired) {
  const CaseResult verdict = CombineRankParts(
      {WithDigest(Part(Status::kPass), "abcd", false), WithDigest(Part(Status::kPass), "abce", false)});
  EXPECT_EQ(verdict.status, Status::kPass);
  EXPECT_DOUBLE_EQ(verdict.metrics["ranks_disagreeing"].get<double>(), 1.0);
}

TEST(RankVerdict, AgreeingBitsPassAndAWorseStatusStands) {
  const CaseResult agreeing =
      CombineRankParts({WithDigest(Part(Status::kPass), "abcd", true), WithDigest(Part(Status::kPass), "abcd", true)});
  EXPECT_EQ(agreeing.status, Status::kPass);
  EXPECT_DOUBLE_EQ(agreeing.metrics["ranks_disagreeing"].get<double>(), 0.0);
  const CaseResult crashed = CombineRankParts(
      {WithDigest(Part(Status::kPass), "abcd", true), Part(Status::kCrash, "killed by signal 11")});
  EXPECT_EQ(crashed.status, Status::kCrash);
  EXPECT_EQ(crashed.message.rfind("killed by signal 11", 0), 0u) << crashed.message;
}

TEST(RankVerdict, WhatStopsPeers) {
  EXPECT_FALSE(StopsPeers(Part(Status::kPass)));
  EXPECT_FALSE(StopsPeers(Outside(3)));
  EXPECT_FALSE(StopsPeers(Stopped("rank 1's part ended fail")));
  EXPECT_TRUE(StopsPeers(Part(Status::kFail, "wrong")));
  EXPECT_TRUE(StopsPeers(Part(Status::kCrash, "killed")));
  EXPECT_TRUE(StopsPeers(Part(Status::kSkip, "needs 8 ranks")));
  EXPECT_TRUE(StopsPeers(Part(Status::kUnsupported, "infinicclCommInitRank answered NOT_IMPLEMENTED")));
}

}  // namespace
}  // namespace infinicts::runner
