// The variable-size collectives' faults: blocks found where the uniform collectives put them,
// at the rank's index times one count, instead of at the sum of the counts before them (the
// slip of an AllGatherV or ReduceScatterV written from AllGather or ReduceScatter). Each
// stays inside the caller's buffers: a wrong offset past the end is pulled back to the last
// place its block fits. Calls the target would refuse or that move nothing go to it as they are.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ccl/ccl_faults.h"
#include "ccl/comm_registry.h"
#include "ccl/number_size.h"

namespace infinicts::fault {
namespace {

// The counts of a call the fault changes, with the caller's rank; nothing for the others.
struct Blocks {
  std::vector<size_t> counts;
  int rank = 0;
  size_t total = 0;
  // Where the faulty code looks for block q: q times `count`, kept inside the buffer.
  size_t UniformOffset(int q, size_t count) const {
    return std::min(static_cast<size_t>(q) * count, total - counts[static_cast<size_t>(q)]);
  }
};

std::optional<Blocks> ChangedBlocks(const size_t *counts, int nranks, infiniDtype_t dtype, infinicclComm_t comm,
                                    const void *whole_buffer, const void *own_block_buffer) {
  const auto member = FindMember(comm);
  if (!member || counts == nullptr || nranks != member->nranks || NumberSize(dtype) == 0) return std::nullopt;
  Blocks blocks{std::vector<size_t>(counts, counts + nranks), member->rank, 0};
  blocks.total = std::accumulate(blocks.counts.begin(), blocks.counts.end(), size_t{0});
  const bool own_empty = blocks.counts[static_cast<size_t>(blocks.rank)] == 0;
  if (blocks.total == 0 || whole_buffer == nullptr || (own_block_buffer == nullptr && !own_empty)) return std::nullopt;
  return blocks;
}

// AllGatherV as InfiniCore builds it, one broadcast rooted at each rank with a block, but
// with block q received at q times this rank's own count.
infiniStatus_t UniformOffsetsAllGatherV(void *send, void *recv, const size_t *recv_counts, int nranks,
                                        infiniDtype_t dtype, infinicclComm_t comm, infinirtStream_t stream) {
  const auto blocks = ChangedBlocks(recv_counts, nranks, dtype, comm, recv, send);
  if (!blocks) return TargetCcl().infinicclAllGatherV(send, recv, recv_counts, nranks, dtype, comm, stream);
  const CclTable &target = TargetCcl();
  const size_t own = blocks->counts[static_cast<size_t>(blocks->rank)];
  infiniStatus_t status = target.infinicclGroupStart(comm);
  for (int q = 0; q < nranks && status == INFINI_STATUS_SUCCESS; ++q) {
    const size_t count = blocks->counts[static_cast<size_t>(q)];
    if (count == 0) continue;
    void *block = static_cast<char *>(recv) + blocks->UniformOffset(q, own) * NumberSize(dtype);
    status = target.infinicclBroadcast(send, block, count, dtype, q, comm, stream);
  }
  const infiniStatus_t ended = target.infinicclGroupEnd(comm);
  return status != INFINI_STATUS_SUCCESS ? status : ended;
}

// ReduceScatterV reducing this rank's block at its rank times its own count: the target gets
// counts that put a block of the rank's own length there (the rest of the total after it,
// or one element before it for a last rank with nothing, so every rank still takes part).
infiniStatus_t OwnCountReduceScatterV(void *send, void *recv, const size_t *send_counts, int nranks,
                                      infiniDtype_t dtype, infinicclReduceOp_t op, infinicclComm_t comm,
                                      infinirtStream_t stream) {
  const auto blocks = ChangedBlocks(send_counts, nranks, dtype, comm, send, recv);
  if (!blocks) return TargetCcl().infinicclReduceScatterV(send, recv, send_counts, nranks, dtype, op, comm, stream);
  const int me = blocks->rank;
  const size_t own = blocks->counts[static_cast<size_t>(me)];
  const size_t start = blocks->UniformOffset(me, own);
  std::vector<size_t> rewritten(static_cast<size_t>(nranks), 0);
  rewritten[static_cast<size_t>(me)] = own;
  if (me > 0) rewritten[0] = start;
  if (me + 1 < nranks) rewritten.back() = blocks->total - start - own;
  else if (start + own == 0) rewritten[0] = 1;
  return TargetCcl().infinicclReduceScatterV(send, recv, rewritten.data(), nranks, dtype, op, comm, stream);
}

}  // namespace

void InstallAllGatherVUniformOffsets(CclTable &calls) {
  TrackCommunicators(calls);
  calls.infinicclAllGatherV = &UniformOffsetsAllGatherV;
}

void InstallReduceScatterVOwnCountEverywhere(CclTable &calls) {
  TrackCommunicators(calls);
  calls.infinicclReduceScatterV = &OwnCountReduceScatterV;
}

INFINICTS_FAULT(CclTable, "all_gather_v_uniform_offsets",
                "AllGatherV receives block q at q times the rank's own count, as AllGather would, instead of after "
                "the blocks before it",
                InstallAllGatherVUniformOffsets);
INFINICTS_FAULT(CclTable, "reduce_scatter_v_own_count_everywhere",
                "ReduceScatterV reduces the block at the rank's index times its own count, as ReduceScatter would, "
                "instead of after the blocks before it",
                InstallReduceScatterVOwnCountEverywhere);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments;
// ${infinicts_ccl_on_4_devices}: the collective suite on 4 CPU devices, whose cases for 8
// ranks skip there and are left out).
// AllGatherV with AllGather's offsets: every case in which some rank's block q does not start
// at q times that rank's own count. One rank, and two ranks with rank 0's block empty, cannot
// tell (one block, at 0 either way); bad input and every count 0 move nothing. Exported and
// wrong, an optional capability fails its part (and so the advanced level).
// fault-detection: all_gather_v_uniform_offsets ${infinicts_ccl_on_4_devices} TIMEOUT 60 MAX_SECONDS 240 ONLY
// fault-detection:   PARTS ccl=fail EXPECT
// fault-detection:   ccl.all_gather_v.conformance/exact/*/counts_mixed/ranks_[2-9]/*
// fault-detection:   ccl.all_gather_v.conformance/exact/*/counts_zero_first/ranks_[3-9]/*
// fault-detection:   ccl.all_gather_v.conformance/exact/*/counts_aligned/*
// fault-detection:   ccl.all_gather_v.conformance/exact/*/counts_large/*
// fault-detection:   ccl.all_gather_v.conformance/null_send_of_empty_block/*
// fault-detection:   ccl.all_gather_v.conformance/after_memcpy_async/*
// ReduceScatterV with its own count as every rank's: every case with a rank past 0 whose block
// does not start at its rank times its own count (one rank cannot tell).
// fault-detection: reduce_scatter_v_own_count_everywhere ${infinicts_ccl_on_4_devices} TIMEOUT 60
// fault-detection:   MAX_SECONDS 240 ONLY EXPECT
// fault-detection:   ccl.reduce_scatter_v.conformance/exact/*/ranks_[2-9]/*
// fault-detection:   ccl.reduce_scatter_v.conformance/null_recv_of_empty_block/*
// fault-detection:   ccl.reduce_scatter_v.conformance/after_memcpy_async/*
