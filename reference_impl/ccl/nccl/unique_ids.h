// The NCCL unique ids this process answered, and which ranks have used each.
//
// An NCCL id forms exactly one communicator (its bootstrap root serves one group and then
// ends), and ncclCommInitRank with an id nobody serves, or a rank taken twice, would wait
// forever. So CommInitRank first claims its rank here, which answers BAD_PARAM where NCCL
// would hang: an id GetUniqueId did not answer in this process, another nranks than the
// ranks claimed before said, or a rank already claimed (every rank of an id that formed a
// communicator stays claimed: unlike a CPU id, an NVIDIA id cannot start a second one; a
// rank whose ncclCommInitRank failed stays claimed too, since NCCL's bootstrap of the id
// may be half done).
#ifndef INFINICTS_REF_CCL_NCCL_UNIQUE_IDS_H
#define INFINICTS_REF_CCL_NCCL_UNIQUE_IDS_H

#include <nccl.h>

#include "infinicore.h"

namespace infinicts::ref::ccl::nccl {

void RememberUniqueId(const ncclUniqueId &id);

infiniStatus_t ClaimRank(const ncclUniqueId &id, int nranks, int rank);

}  // namespace infinicts::ref::ccl::nccl

#endif  // INFINICTS_REF_CCL_NCCL_UNIQUE_IDS_H
