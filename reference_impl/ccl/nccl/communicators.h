// Making NVIDIA communicators on NCCL, for api_comm.cc (CUDA builds only). The shared
// checks (NULL pointers, counts, ranks, device ids) come first, in api_comm.cc.
#ifndef INFINICTS_REF_CCL_NCCL_COMMUNICATORS_H
#define INFINICTS_REF_CCL_NCCL_COMMUNICATORS_H

#include <vector>

#include "infiniccl.h"

namespace infinicts::ref::ccl::nccl {

// comms[r] = rank r of one group on CUDA device devices[r] (distinct, existing ids), by
// ncclCommInitAll. comms is written only on SUCCESS.
infiniStatus_t CommInitAll(const std::vector<int> &devices, infinicclComm_t *comms);

// A fresh NCCL unique id carried in the InfiniCCL id (the rest of it zero).
infiniStatus_t NewUniqueId(infinicclUniqueId_t *unique_id);

// Rank `rank` of `nranks` on CUDA device `device` (the caller's current device), by
// ncclCommInitRank: waits until every rank has called. BAD_PARAM: see unique_ids.h.
infiniStatus_t CommInitRank(infinicclComm_t *comm, int nranks, const infinicclUniqueId_t &unique_id, int rank,
                            int device);

}  // namespace infinicts::ref::ccl::nccl

#endif  // INFINICTS_REF_CCL_NCCL_COMMUNICATORS_H
