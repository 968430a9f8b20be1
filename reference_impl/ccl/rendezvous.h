// Unique ids, and the meeting where the ranks calling CommInitRank with one id become a
// communicator. The ranks may be in several processes of one host (an id travels between
// them as bytes, as under mpirun): they meet in shared memory named by the id
// (process_group.h).
#ifndef INFINICTS_REF_CCL_RENDEZVOUS_H
#define INFINICTS_REF_CCL_RENDEZVOUS_H

#include <memory>

#include "ccl/communicator.h"
#include "infiniccl.h"

namespace infinicts::ref::ccl {

// A fresh id: the making process and its serial number there.
void NewUniqueId(infinicclUniqueId_t *id);

// Whether `id` is one NewUniqueId answered, in this process or another.
bool IsUniqueId(const infinicclUniqueId_t &id);

// Registers `rank` (on CPU device `device`) under the id and waits until all `nranks` ranks
// have, in this process or others, then answers their shared group. BAD_PARAM: the rank is
// already waiting under this id, or the ranks waiting there said another nranks.
// INTERNAL_ERROR: the others did not all come within the time limit
// (INFINICTS_CCL_INIT_TIMEOUT_MS, default 60 s); the rank is withdrawn and the id may be
// used again.
infiniStatus_t JoinRendezvous(const infinicclUniqueId_t &id, int nranks, int rank, int device,
                              std::shared_ptr<CommGroup> *group);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_RENDEZVOUS_H
