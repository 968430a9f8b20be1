#include "ccl/nccl/communicators.h"

#include <nccl.h>

#include <cstring>
#include <memory>

#include "ccl/communicator.h"
#include "ccl/nccl/keep_current_device.h"
#include "ccl/nccl/nccl_rank.h"
#include "ccl/nccl/nccl_types.h"
#include "ccl/nccl/unique_ids.h"
#include "cuda/cuda_status.h"

namespace infinicts::ref::ccl::nccl {

static_assert(sizeof(ncclUniqueId) <= sizeof(infinicclUniqueId_t::internal), "an NCCL unique id must fit InfiniCCL's");

infiniStatus_t CommInitAll(const std::vector<int> &devices, infinicclComm_t *comms) {
  const int nranks = static_cast<int>(devices.size());
  // Every handle is made before NCCL is asked: a failure afterwards cannot leak a comm.
  std::vector<std::unique_ptr<InfinicclComm>> made;
  std::vector<NcclRank *> ranks;
  made.reserve(devices.size());
  ranks.reserve(devices.size());
  for (int rank = 0; rank < nranks; ++rank) {
    auto on_device = std::make_unique<NcclRank>(devices[static_cast<size_t>(rank)], rank, nranks);
    ranks.push_back(on_device.get());
    made.push_back(std::make_unique<InfinicclComm>(std::move(on_device), rank, nranks));
  }
  std::vector<ncclComm_t> nccl_comms(devices.size(), nullptr);
  {
    const KeepCurrentDevice keep_current;
    const infiniStatus_t status = ToStatus(ncclCommInitAll(nccl_comms.data(), nranks, devices.data()));
    if (status != INFINI_STATUS_SUCCESS) return status;
  }
  for (int rank = 0; rank < nranks; ++rank)
    ranks[static_cast<size_t>(rank)]->Adopt(nccl_comms[static_cast<size_t>(rank)]);
  for (int rank = 0; rank < nranks; ++rank) comms[rank] = made[static_cast<size_t>(rank)].release();
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t NewUniqueId(infinicclUniqueId_t *unique_id) {
  ncclUniqueId id;
  const infiniStatus_t status = ToStatus(ncclGetUniqueId(&id));
  if (status != INFINI_STATUS_SUCCESS) return status;
  RememberUniqueId(id);
  std::memset(unique_id->internal, 0, sizeof unique_id->internal);
  std::memcpy(unique_id->internal, id.internal, sizeof id.internal);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CommInitRank(infinicclComm_t *comm, int nranks, const infinicclUniqueId_t &unique_id, int rank,
                            int device) {
  ncclUniqueId id;
  std::memcpy(id.internal, unique_id.internal, sizeof id.internal);
  auto on_device = std::make_unique<NcclRank>(device, rank, nranks);
  NcclRank *const nccl_rank = on_device.get();
  auto made = std::make_unique<InfinicclComm>(std::move(on_device), rank, nranks);
  infiniStatus_t status = ClaimRank(id, nranks, rank);
  if (status != INFINI_STATUS_SUCCESS) return status;
  ncclComm_t nccl_comm = nullptr;
  {
    const cuda::DeviceGuard on_rank_device(device);
    if (on_rank_device.status() != INFINI_STATUS_SUCCESS) return on_rank_device.status();
    status = ToStatus(ncclCommInitRank(&nccl_comm, nranks, id, rank));
  }
  if (status != INFINI_STATUS_SUCCESS) return status;
  nccl_rank->Adopt(nccl_comm);
  *comm = made.release();
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::ref::ccl::nccl
