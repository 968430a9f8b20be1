// CommInitRank over MPI, for ids made in a process that had initialized MPI with
// MPI_THREAD_MULTIPLE (the id then carries its maker's MPI_COMM_WORLD rank). Every rank
// tells the maker its world rank, host and device; the maker, once all `nranks` have, sends
// each the table of all. Ranks that share one host then meet in shared memory as without
// MPI (process_group.h, faster there); ranks on several hosts get an MPI communicator of
// their own and exchange messages (mpi_group.h). INFINICTS_REF_CCL_TRANSPORT=mpi, read by
// the maker, makes ranks on one host use messages too (how the tests reach that path on
// one machine).
#ifndef INFINICTS_REF_CCL_MPI_MPI_RENDEZVOUS_H
#define INFINICTS_REF_CCL_MPI_MPI_RENDEZVOUS_H

#include <chrono>
#include <cstdint>
#include <memory>

#include "ccl/communicator.h"
#include "infinirt.h"

namespace infinicts::ref::ccl {

// This process's MPI_COMM_WORLD rank when MPI is initialized (not finalized) with
// MPI_THREAD_MULTIPLE; -1 otherwise.
int MpiWorldRankIfReady();

// Whether INFINICTS_REF_CCL_TRANSPORT asks for messages even between ranks of one host.
bool MessagesRequested();

// The meeting of `rank` under the id whose maker is world rank `maker` and whose random
// part is `key`. On success either `*group` is the communicator (ranks on several hosts),
// or it stays NULL and `*same_host` is set: the ranks are to meet in shared memory.
// BAD_PARAM: two ranks claimed one rank number, or the ranks said different nranks.
// INTERNAL_ERROR: MPI is not ready here, not every rank came within `timeout`, or ranks
// of one process are spread over several hosts (one rank per process is needed there).
infiniStatus_t JoinOverMpi(int maker, uint64_t key, int nranks, int rank, int device, std::chrono::milliseconds timeout,
                           std::shared_ptr<CommGroup> *group, bool *same_host);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_MPI_MPI_RENDEZVOUS_H
