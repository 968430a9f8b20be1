// What one rank of a communicator whose ranks are separate processes checks
// (process_rank_main.cc, mpi_rank_main.cc): it joins with CommInitRank on the CPU device
// rank % device count, runs every collective and a ring of Send/Recv on data that differs
// per rank, with counts that span several staging windows, odd ones and empty blocks, in
// place and not, and checks every result exactly.
#pragma once

#include "infiniccl.h"

namespace ccl_test {

// How the ranks reach each other's large buffers: by mapping the peers' device blocks
// (shared memory, one host), or not at all (messages over MPI).
enum class PeerBuffers { kMapped, kUnmapped };

// False, after printing what differed on stderr, when a call failed, a result was wrong, or
// the peers' buffers were reached another way than `expected` says.
bool RunProcessRank(int nranks, int rank, infinicclUniqueId_t id, PeerBuffers expected);

}  // namespace ccl_test
