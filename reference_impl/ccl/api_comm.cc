// The exported communicator functions: making, destroying, grouping.
#include <memory>
#include <unordered_set>
#include <vector>

#include "ccl/api_guard.h"
#include "ccl/c_enum.h"
#include "ccl/communicator.h"
#include "ccl/group.h"
#include "ccl/rendezvous.h"
#include "infiniccl.h"

using infinicts::ref::ccl::CommGroup;
using infinicts::ref::ccl::Guarded;

__INFINI_C infiniStatus_t infinicclCommInitAll(infiniDevice_t device_type, infinicclComm_t *comms, int ndevice,
                                               const int *device_ids) {
  if (comms == nullptr || device_ids == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (ndevice <= 0) return INFINI_STATUS_BAD_PARAM;
  // Collectives run on host memory: only CPU devices, whatever else the runtime has.
  int device_count = 0;
  if (infinicts::ref::ccl::EnumValue(device_type) != INFINI_DEVICE_CPU ||
      infinirtGetDeviceCount(INFINI_DEVICE_CPU, &device_count) != INFINI_STATUS_SUCCESS || device_count <= 0) {
    return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  }
  for (int i = 0; i < ndevice; ++i) {
    if (device_ids[i] < 0 || device_ids[i] >= device_count) return INFINI_STATUS_DEVICE_NOT_FOUND;
  }
  return Guarded([&] {
    const std::vector<int> devices(device_ids, device_ids + ndevice);
    if (std::unordered_set<int>(devices.begin(), devices.end()).size() != devices.size()) {
      return INFINI_STATUS_BAD_PARAM;
    }
    const auto group = std::make_shared<CommGroup>(devices);
    // Every handle is made before any is handed out: a failure leaves nothing behind.
    std::vector<std::unique_ptr<InfinicclComm>> made;
    made.reserve(devices.size());
    for (int rank = 0; rank < ndevice; ++rank) made.push_back(std::make_unique<InfinicclComm>(group, rank));
    for (int rank = 0; rank < ndevice; ++rank) comms[rank] = made[static_cast<size_t>(rank)].release();
    return INFINI_STATUS_SUCCESS;
  });
}

__INFINI_C infiniStatus_t infinicclGetUniqueId(infinicclUniqueId_t *unique_id) {
  if (unique_id == nullptr) return INFINI_STATUS_NULL_POINTER;
  infinicts::ref::ccl::NewUniqueId(unique_id);
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinicclCommInitRank(infinicclComm_t *comm, int nranks, infinicclUniqueId_t unique_id,
                                                int rank) {
  if (comm == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (nranks <= 0 || rank < 0 || rank >= nranks) return INFINI_STATUS_BAD_PARAM;
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int device = 0;
  const infiniStatus_t status = infinirtGetDevice(&type, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (type != INFINI_DEVICE_CPU) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  if (!infinicts::ref::ccl::IsKnownUniqueId(unique_id)) return INFINI_STATUS_BAD_PARAM;
  return Guarded([&] {
    std::shared_ptr<CommGroup> group;
    const infiniStatus_t joined = infinicts::ref::ccl::JoinRendezvous(unique_id, nranks, rank, device, &group);
    if (joined != INFINI_STATUS_SUCCESS) return joined;
    *comm = new InfinicclComm(group, rank);
    return INFINI_STATUS_SUCCESS;
  });
}

__INFINI_C infiniStatus_t infinicclCommDestroy(infinicclComm_t comm) {
  if (comm == nullptr) return INFINI_STATUS_NULL_POINTER;
  delete comm;
  return INFINI_STATUS_SUCCESS;
}

// Groups are per calling thread (the comm argument is not needed): see group.h.
__INFINI_C infiniStatus_t infinicclGroupStart(infinicclComm_t /*comm*/) {
  infinicts::ref::ccl::OpenGroup();
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinicclGroupEnd(infinicclComm_t /*comm*/) {
  return Guarded([] { return infinicts::ref::ccl::CloseGroup(); });
}
