// --shard K/N (docs/usage.md "Sharded runs"): the K-th of N parts of the selected cases,
// balanced by expected duration so that N machines finish together. The split depends only
// on the selection and the table of expected durations built into the command, so every
// machine given the same selection computes the same N parts.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "cts/case_list.h"

namespace infinicts::runner {

struct ShardSpec {
  int index = 1;  // K, from 1
  int count = 1;  // N
};

// "2/3" -> {2, 3}; false with a one-line reason unless 1 <= K <= N <= kMaxShards.
bool ParseShard(const std::string &text, ShardSpec *shard, std::string *error);
inline constexpr int kMaxShards = 4096;

// Milliseconds a case is expected to take, from a table of mean durations by test (an id
// up to its parameters: "op.gemm.accuracy/matches_oracle"), measured on full runs of the CPU
// reference (harness/runner/expected_durations.json). A test the table lacks takes the mean
// of its subject and mode, else of its suite and mode, else of the whole table.
class DurationModel {
 public:
  // Throws nlohmann::json::exception when the table is not {"tests": {TEST: MS, …}}.
  explicit DurationModel(const nlohmann::json &table);
  static const DurationModel &BuiltIn();  // the table built into the command

  double ExpectedMs(const cts::ListedCase &listed) const;

 private:
  std::map<std::string, double> by_test_;
  std::map<std::string, double> by_subject_mode_;  // "op.gemm.accuracy"
  std::map<std::string, double> by_suite_mode_;    // "op.accuracy"
  double overall_ = 0;
};

// The test an id belongs to: the id up to its parameters ("op.gemm.accuracy/matches_oracle"
// of "op.gemm.accuracy/matches_oracle/f16/m1_n1_k1").
std::string TestOfId(const std::string &id);

// The shard (1 to count) of each case, in the order given: the longest expected cases first,
// each to the shard with the least expected time so far (ties: the case id, then the lowest
// shard), so the parts differ by at most about one case's time.
std::vector<int> AssignShards(const std::vector<const cts::ListedCase *> &cases, int count,
                              const DurationModel &model);

}  // namespace infinicts::runner
