// InfiniCCL's groups on NCCL: each GroupStart of the calling thread opens an NCCL group
// beside the CPU path's (group.h), and each GroupEnd that closes a CPU level closes one
// NCCL level, so the outermost GroupEnd launches the NVIDIA ranks' held calls
// (ncclGroupEnd) as it enqueues the CPU ranks' work. Only where the runtime has an
// NVIDIA device: elsewhere no NVIDIA communicator exists and NCCL is never touched.
#ifndef INFINICTS_REF_CCL_NCCL_GROUPS_H
#define INFINICTS_REF_CCL_NCCL_GROUPS_H

#include <functional>

#include "infinicore.h"

namespace infinicts::ref::ccl::nccl {

infiniStatus_t OpenNcclGroup();

// Closes the level the last OpenNcclGroup of this thread opened, if any; NCCL's errors of
// the calls it held surface here. The outermost level then runs the held AfterLaunch steps.
infiniStatus_t CloseNcclGroup();

// Runs `step` (work a collective enqueues behind its NCCL call: a narrowing, a division,
// a free) once the NCCL calls issued so far are on their streams: now outside a group,
// after the outermost ncclGroupEnd inside one. Answers the step's status, or SUCCESS
// when held (a held step's failure is answered by the GroupEnd).
infiniStatus_t AfterLaunch(std::function<infiniStatus_t()> step);

}  // namespace infinicts::ref::ccl::nccl

#endif  // INFINICTS_REF_CCL_NCCL_GROUPS_H
