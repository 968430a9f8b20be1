// The collective algorithms, as each rank's stream worker runs them once every rank has
// reached the collective: all CPU device memory is addressable from every worker, so a
// rank reads the other ranks' buffers directly, and the work is split across the ranks
// (they run in parallel, one worker each), never looped over ranks on one thread.
//
// Each function returns when this rank's receive buffer holds its result and no rank
// will read this rank's buffers any more, so the stream may go on to reuse them.
#ifndef INFINICTS_REF_CCL_COLLECTIVES_H
#define INFINICTS_REF_CCL_COLLECTIVES_H

#include <cstddef>
#include <memory>

#include "ccl/block_layout.h"
#include "ccl/meeting.h"
#include "ccl/reduce.h"
#include "ccl/reduce_to_all.h"

namespace infinicts::ref::ccl {

// One pass: rank r reduces chunk r of every rank's send buffer, a vector at a time with
// `reduce_to_all` where there is one (and no receive buffer overlaps a send buffer other
// than exactly), otherwise a cache-sized block at a time with `reduce`, and writes the
// results straight into every rank's receive buffer. Every element is read n times and
// written n times, the least traffic shared memory allows, and reduced once in rank order,
// so every rank's copy is bit-identical.
void RunAllReduce(Meeting &meeting, int rank, RankBuffers mine, size_t count, size_t element_size,
                  ReduceFunction reduce, ReduceToAllFunction reduce_to_all);

// Rank r reduces segment r of every rank's send buffer into its receive buffer.
void RunReduceScatter(Meeting &meeting, int rank, RankBuffers mine, size_t recv_count, size_t element_size,
                      ReduceFunction reduce);

// Rank r copies every rank's send buffer into its own receive buffer.
void RunAllGather(Meeting &meeting, int rank, RankBuffers mine, size_t send_count, size_t element_size);

// AllGatherV: rank r copies block q of `layout` from rank q's send buffer into its own
// receive buffer, for every q.
void RunAllGatherV(Meeting &meeting, int rank, RankBuffers mine, const BlockLayout &layout, size_t element_size);

// ReduceScatterV: rank r reduces block r of `layout` over every rank's send buffer into its
// receive buffer.
void RunReduceScatterV(Meeting &meeting, int rank, RankBuffers mine, const BlockLayout &layout, size_t element_size,
                       ReduceFunction reduce);

// Every rank copies the root's send buffer into its own receive buffer.
void RunBroadcast(Meeting &meeting, int rank, RankBuffers mine, size_t count, size_t element_size, int root);

// One rank's part of one collective, as the API call described it.
enum class CollectiveKind { kAllReduce, kReduceScatter, kAllGather, kAllGatherV, kReduceScatterV, kBroadcast };
struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  RankBuffers mine;
  size_t count = 0;  // AllReduce, Broadcast: of the buffers; ReduceScatter: received; AllGather: sent
  size_t element_size = 0;
  ReduceFunction reduce = nullptr;
  ReduceToAllFunction reduce_to_all = nullptr;
  int root = 0;                           // Broadcast
  std::shared_ptr<const BlockLayout> layout;  // AllGatherV, ReduceScatterV
};

// Runs `call` with the functions above.
void RunCollective(Meeting &meeting, int rank, const CollectiveCall &call);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_COLLECTIVES_H
