// Ranks reached only by messages (mpi/, between hosts): each rank's part of a collective,
// and its point-to-point calls, run on its stream worker as messages to and from the
// others, instead of meeting the others in memory (collectives.h, process_group.h).
#ifndef INFINICTS_REF_CCL_REMOTE_RANKS_H
#define INFINICTS_REF_CCL_REMOTE_RANKS_H

#include <cstddef>
#include <cstdint>

#include "ccl/collectives.h"

namespace infinicts::ref::ccl {

class RemoteRanks {
 public:
  virtual ~RemoteRanks() = default;
  // This process's rank's part of its `sequence`-th collective (numbered in issue order, as
  // in communicator.h); returns once its receive buffer holds the result and no peer will
  // read its buffers any more.
  virtual void RunCollective(uint64_t sequence, const CollectiveCall &call) = 0;
  // The `sequence`-th message from this rank to `to` (or to this rank from `from`). Send
  // never waits for its receiver, as in one process.
  virtual void Send(int to, uint64_t sequence, const void *data, size_t bytes) = 0;
  virtual void Recv(int from, uint64_t sequence, void *data, size_t bytes) = 0;
};

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_REMOTE_RANKS_H
