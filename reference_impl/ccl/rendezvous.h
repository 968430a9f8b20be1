// Unique ids, and the meeting where the ranks calling CommInitRank with one id become a
// communicator. Process-local: every rank of the reference runs in this process.
#ifndef INFINICTS_REF_CCL_RENDEZVOUS_H
#define INFINICTS_REF_CCL_RENDEZVOUS_H

#include <memory>

#include "ccl/communicator.h"
#include "infiniccl.h"

namespace infinicts::ref::ccl {

// A fresh id, never answered before in this process.
void NewUniqueId(infinicclUniqueId_t *id);

// Whether `id` is one NewUniqueId answered in this process.
bool IsKnownUniqueId(const infinicclUniqueId_t &id);

// Registers `rank` (on CPU device `device`) under the known `id` and waits until all
// `nranks` ranks have, then answers their shared group. BAD_PARAM: the rank is already
// waiting under this id, or the ranks waiting there said another nranks. INTERNAL_ERROR:
// the others did not all come within the time limit (INFINICTS_CCL_INIT_TIMEOUT_MS,
// default 60 s); the rank is withdrawn and the id may be used again.
infiniStatus_t JoinRendezvous(const infinicclUniqueId_t &id, int nranks, int rank, int device,
                              std::shared_ptr<CommGroup> *group);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_RENDEZVOUS_H
