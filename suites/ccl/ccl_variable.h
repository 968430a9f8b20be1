// What the variable-size collectives' cases share (AllGatherV, ReduceScatterV): the per-rank
// counts they are run with, their parameter, their plans for the collective runner, and
// the whole case. Both are optional capabilities (docs/spec/ccl.md, CCL-AGV and CCL-RSV):
// every case notes its collective, so a backend without them ends those cases
// `unsupported` without losing the advanced level, and one that has them must be right.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ccl_params.h"
#include "ccl_run.h"

namespace infinicts::ccl_cases {

// Counts that differ from rank to rank, so a block at another rank's offset, of another
// rank's length or from another rank shows: odd ones (a tail), vector-aligned ones, and 0.
enum class CountsPattern {
  kMixed,      // 13, 7, 64, 0, 8, 1, 4096, 3
  kZeroFirst,  // 0, 33, 8, 5, 0, 17, 2, 64: rank 0's block is empty, every other starts early
  kAligned,    // 4096, 64, 1024, 8, 128, 512, 16, 256
  kLarge,      // 1,000,003, 0, 262,147, 65,536: past the caches, blocks of unlike lengths
};
const char *PatternName(CountsPattern pattern);
// The first `ranks` counts of the pattern (cycled past its length).
std::vector<size_t> CountsFor(CountsPattern pattern, int ranks);

enum class VariableKind { kAllGatherV, kReduceScatterV };
// The optional capability of the kind, as the report lists it: "all_gather_v", "reduce_scatter_v".
const char *CapabilityName(VariableKind kind);

struct VariableParam : cts::Param<VariableParam> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  std::optional<infinicclReduceOp_t> op;  // ReduceScatterV
  CountsPattern pattern = CountsPattern::kMixed;
  int ranks = 4;
  Placement placement = Placement::kOutOfPlace;
  Drive drive = Drive::kOneThread;

  std::string Name() const;  // e.g. sum__f32__counts_mixed__ranks_4__out_of_place__one_thread
  std::string Json() const;
};

// The cross product of its arguments, appended to `params`.
void AddVariableParams(std::vector<VariableParam> &params, const std::vector<std::optional<infinicclReduceOp_t>> &ops,
                       const std::vector<infiniDtype_t> &dtypes, const std::vector<CountsPattern> &patterns,
                       const std::vector<int> &ranks, const std::vector<Placement> &placements, Drive drive);

// payloads[r]: rank r's block (counts[r] elements).
CollectivePlan AllGatherVPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, const std::vector<size_t> &counts,
                              Placement placement);
// data: nranks inputs of sum(counts) elements and their reduction.
CollectivePlan ReduceScatterVPlan(ReductionData data, infiniDtype_t dtype, infinicclReduceOp_t op,
                                  const std::vector<size_t> &counts, Placement placement);

// The stream-order cases' parameters: the large pattern on 4 ranks, from one thread and
// from one thread each.
std::vector<VariableParam> StreamOrderParams(std::optional<infinicclReduceOp_t> op, infiniDtype_t dtype);

// The plan a VariableParam asks for, with data seeded from the running case.
CollectivePlan PlanFor(VariableKind kind, const VariableParam &param);

// Notes the capability, skips without enough devices, opens a group over the first
// param.ranks devices, runs and checks the plan (changed by `adjust` where given), closes.
void RunVariableCase(VariableKind kind, const VariableParam &param, Feeding feeding = Feeding::kBlocking,
                     const std::function<void(CollectivePlan &)> &adjust = {});

// The blocks a plan's issue gets for rank r: where its own block is empty, the buffer
// holding only that block is passed as NULL (AllGatherV's send, ReduceScatterV's receive).
void PassNullForEmptyBlocks(VariableKind kind, const std::vector<size_t> &counts, CollectivePlan &plan);

}  // namespace infinicts::ccl_cases
