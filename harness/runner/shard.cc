#include "runner/shard.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <tuple>
#include <utility>

namespace infinicts {
namespace runner {
extern const char kExpectedDurationsText[];  // expected_durations.json, embedded at build time
}  // namespace runner

namespace runner {
namespace {

// A positive decimal integer of at most 9 digits.
bool ParseCount(const std::string &text, int *value) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  *value = std::stoi(text);
  return true;
}

// "op.gemm.accuracy/…" -> {"op", "gemm", "accuracy"}; empty parts when the id is not one.
std::tuple<std::string, std::string, std::string> SuiteSubjectMode(const std::string &test) {
  const std::string head = test.substr(0, test.find('/'));
  const size_t first = head.find('.');
  const size_t last = head.rfind('.');
  if (first == std::string::npos || first == last) return {};
  return {head.substr(0, first), head.substr(first + 1, last - first - 1), head.substr(last + 1)};
}

void Accumulate(std::map<std::string, std::pair<double, int>> *sums, const std::string &key, double ms) {
  auto &[total, count] = (*sums)[key];
  total += ms;
  ++count;
}

std::map<std::string, double> Means(const std::map<std::string, std::pair<double, int>> &sums) {
  std::map<std::string, double> means;
  for (const auto &[key, sum] : sums) means[key] = sum.first / sum.second;
  return means;
}

}  // namespace

bool ParseShard(const std::string &text, ShardSpec *shard, std::string *error) {
  const size_t slash = text.find('/');
  ShardSpec parsed;
  if (slash == std::string::npos || !ParseCount(text.substr(0, slash), &parsed.index) ||
      !ParseCount(text.substr(slash + 1), &parsed.count)) {
    *error = "--shard wants K/N, the K-th of N parts counted from 1 (2/3), not '" + text + "'";
    return false;
  }
  if (parsed.count < 1 || parsed.count > kMaxShards || parsed.index < 1 || parsed.index > parsed.count) {
    *error = "--shard " + text + ": K must be 1 to N and N 1 to " + std::to_string(kMaxShards);
    return false;
  }
  *shard = parsed;
  return true;
}

std::string TestOfId(const std::string &id) {
  const size_t first = id.find('/');
  if (first == std::string::npos) return id;
  return id.substr(0, id.find('/', first + 1));
}

DurationModel::DurationModel(const nlohmann::json &table) {
  std::map<std::string, std::pair<double, int>> subject_modes, suite_modes;
  double total = 0;
  for (const auto &[test, ms_json] : table.at("tests").items()) {
    const double ms = std::max(ms_json.get<double>(), 0.0);
    by_test_[test] = ms;
    const auto [suite, subject, mode] = SuiteSubjectMode(test);
    Accumulate(&subject_modes, suite + "." + subject + "." + mode, ms);
    Accumulate(&suite_modes, suite + "." + mode, ms);
    total += ms;
  }
  by_subject_mode_ = Means(subject_modes);
  by_suite_mode_ = Means(suite_modes);
  overall_ = by_test_.empty() ? 1.0 : total / static_cast<double>(by_test_.size());
}

const DurationModel &DurationModel::BuiltIn() {
  static const DurationModel model(nlohmann::json::parse(kExpectedDurationsText));
  return model;
}

double DurationModel::ExpectedMs(const cts::ListedCase &listed) const {
  const std::string test = TestOfId(listed.id);
  if (auto found = by_test_.find(test); found != by_test_.end()) return found->second;
  if (auto found = by_subject_mode_.find(listed.suite + "." + listed.subject + "." + listed.mode);
      found != by_subject_mode_.end()) {
    return found->second;
  }
  if (auto found = by_suite_mode_.find(listed.suite + "." + listed.mode); found != by_suite_mode_.end()) {
    return found->second;
  }
  return overall_;
}

std::vector<int> AssignShards(const std::vector<const cts::ListedCase *> &cases, int count,
                              const DurationModel &model) {
  std::vector<double> expected(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) expected[i] = model.ExpectedMs(*cases[i]);
  std::vector<size_t> order(cases.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (expected[a] != expected[b]) return expected[a] > expected[b];
    return cases[a]->id < cases[b]->id;
  });
  // The least loaded shard on top; among equal loads, the lowest number.
  using Load = std::pair<double, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> loads;
  for (int shard = 1; shard <= count; ++shard) loads.emplace(0.0, shard);
  std::vector<int> shard_of(cases.size(), 1);
  for (size_t i : order) {
    auto [load, shard] = loads.top();
    loads.pop();
    shard_of[i] = shard;
    loads.emplace(load + expected[i], shard);
  }
  return shard_of;
}

}  // namespace runner
}  // namespace infinicts
