// What one rank of a communicator whose ranks are separate processes checks
// (process_rank_main.cc, mpi_rank_main.cc): it joins with CommInitRank on the CPU device
// rank % device count, runs every collective and a ring of Send/Recv on data that differs
// per rank, with counts that span several staging windows, odd ones and empty blocks, in
// place and not, and checks every result exactly.
#pragma once

#include "infiniccl.h"

namespace ccl_test {

// False, after printing what differed on stderr, when a call failed or a result was wrong.
bool RunProcessRank(int nranks, int rank, infinicclUniqueId_t id);

}  // namespace ccl_test
