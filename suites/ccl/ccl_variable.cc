#include "ccl_variable.h"

#include <numeric>

#include "ccl_check.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;

const std::vector<size_t> &PatternCounts(CountsPattern pattern) {
  static const std::vector<size_t> mixed = {13, 7, 64, 0, 8, 1, 4096, 3};
  static const std::vector<size_t> zero_first = {0, 33, 8, 5, 0, 17, 2, 64};
  static const std::vector<size_t> aligned = {4096, 64, 1024, 8, 128, 512, 16, 256};
  static const std::vector<size_t> large = {kLargeOddCount, 0, kStreamOrderCount, 65536};
  switch (pattern) {
    case CountsPattern::kMixed: return mixed;
    case CountsPattern::kZeroFirst: return zero_first;
    case CountsPattern::kAligned: return aligned;
    case CountsPattern::kLarge: return large;
  }
  return mixed;
}

std::string RankCall(const char *call, int rank) { return std::string(call) + " on rank " + std::to_string(rank); }

}  // namespace

const char *PatternName(CountsPattern pattern) {
  switch (pattern) {
    case CountsPattern::kMixed: return "mixed";
    case CountsPattern::kZeroFirst: return "zero_first";
    case CountsPattern::kAligned: return "aligned";
    case CountsPattern::kLarge: return "large";
  }
  return "?";
}

std::vector<size_t> CountsFor(CountsPattern pattern, int ranks) {
  const std::vector<size_t> &cycle = PatternCounts(pattern);
  std::vector<size_t> counts;
  for (int r = 0; r < ranks; ++r) counts.push_back(cycle[static_cast<size_t>(r) % cycle.size()]);
  return counts;
}

const char *CapabilityName(VariableKind kind) {
  return kind == VariableKind::kAllGatherV ? "all_gather_v" : "reduce_scatter_v";
}

std::string VariableParam::Name() const {
  std::string name = op ? std::string(OpName(*op)) + "__" : std::string();
  return name + NumberDtypeName(dtype) + "__counts_" + PatternName(pattern) + "__ranks_" + std::to_string(ranks) +
         "__" + PlacementName(placement) + "__" + DriveName(drive);
}

std::string VariableParam::Json() const {
  nlohmann::json json{{"dtype", NumberDtypeName(dtype)},    {"counts", CountsFor(pattern, ranks)},
                      {"ranks", ranks},                     {"placement", PlacementName(placement)},
                      {"drive", DriveName(drive)}};
  if (op) json["op"] = OpName(*op);
  return json.dump();
}

void AddVariableParams(std::vector<VariableParam> &params, const std::vector<std::optional<infinicclReduceOp_t>> &ops,
                       const std::vector<infiniDtype_t> &dtypes, const std::vector<CountsPattern> &patterns,
                       const std::vector<int> &ranks, const std::vector<Placement> &placements, Drive drive) {
  for (const auto &op : ops)
    for (infiniDtype_t dtype : dtypes)
      for (CountsPattern pattern : patterns)
        for (int rank_count : ranks)
          for (Placement placement : placements) {
            VariableParam param;
            param.dtype = dtype;
            param.op = op;
            param.pattern = pattern;
            param.ranks = rank_count;
            param.placement = placement;
            param.drive = drive;
            params.push_back(param);
          }
}

CollectivePlan AllGatherVPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, const std::vector<size_t> &counts,
                              Placement placement) {
  CollectivePlan plan;
  plan.dtype = dtype;
  plan.placement = placement;
  plan.ranks = GatherRankPlans(std::move(payloads), placement);
  const int nranks = static_cast<int>(counts.size());
  plan.issue = [counts, nranks, dtype](const World &world, int r, void *send, void *recv) {
    return Check(ccl().infinicclAllGatherV(send, recv, counts.data(), nranks, dtype, world.comm(r), world.stream(r)),
                 RankCall("infinicclAllGatherV", r));
  };
  return plan;
}

CollectivePlan ReduceScatterVPlan(ReductionData data, infiniDtype_t dtype, infinicclReduceOp_t op,
                                  const std::vector<size_t> &counts, Placement placement) {
  CollectivePlan plan;
  plan.dtype = dtype;
  plan.placement = placement;
  plan.within_ulps = ComparedWithinUlps(dtype, op);
  std::vector<size_t> block_bytes;
  for (size_t count : counts) block_bytes.push_back(count * ElementSize(dtype));
  plan.ranks = ScatterRankPlans(std::move(data), block_bytes, placement);
  const int nranks = static_cast<int>(counts.size());
  plan.issue = [counts, nranks, dtype, op](const World &world, int r, void *send, void *recv) {
    return Check(
        ccl().infinicclReduceScatterV(send, recv, counts.data(), nranks, dtype, op, world.comm(r), world.stream(r)),
        RankCall("infinicclReduceScatterV", r));
  };
  return plan;
}

std::vector<VariableParam> StreamOrderParams(std::optional<infinicclReduceOp_t> op, infiniDtype_t dtype) {
  std::vector<VariableParam> params;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    AddVariableParams(params, {op}, {dtype}, {CountsPattern::kLarge}, {4}, {Placement::kOutOfPlace}, drive);
  }
  return params;
}

CollectivePlan PlanFor(VariableKind kind, const VariableParam &param) {
  std::mt19937_64 rng = CaseRng();
  const std::vector<size_t> counts = CountsFor(param.pattern, param.ranks);
  if (kind == VariableKind::kAllGatherV) {
    std::vector<Bytes> payloads;
    for (size_t count : counts) payloads.push_back(RandomBytes(count * ElementSize(param.dtype), rng));
    return AllGatherVPlan(std::move(payloads), param.dtype, counts, param.placement);
  }
  const size_t total = std::accumulate(counts.begin(), counts.end(), size_t{0});
  return ReduceScatterVPlan(MakeReductionData(param.dtype, *param.op, param.ranks, total, rng), param.dtype, *param.op,
                            counts, param.placement);
}

void RunVariableCase(VariableKind kind, const VariableParam &param, Feeding feeding,
                     const std::function<void(CollectivePlan &)> &adjust) {
  cts::NoteOptionalCapability(CapabilityName(kind));
  RunOnNewGroup(param.ranks, param.drive, [&] {
    CollectivePlan plan = PlanFor(kind, param);
    if (adjust) adjust(plan);
    return plan;
  }, feeding);
}

void PassNullForEmptyBlocks(VariableKind kind, const std::vector<size_t> &counts, CollectivePlan &plan) {
  plan.issue = [kind, counts, issue = plan.issue](const World &world, int r, void *send, void *recv) {
    const bool empty = counts[static_cast<size_t>(r)] == 0;
    if (empty && kind == VariableKind::kAllGatherV) send = nullptr;
    if (empty && kind == VariableKind::kReduceScatterV) recv = nullptr;
    return issue(world, r, send, recv);
  };
}

}  // namespace infinicts::ccl_cases
