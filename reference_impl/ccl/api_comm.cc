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
#ifdef INFINICTS_REF_CCL_WITH_NCCL
#include "ccl/nccl/communicators.h"
#include "ccl/nccl/groups.h"
#endif

using infinicts::ref::ccl::CommGroup;
using infinicts::ref::ccl::Guarded;

namespace {

// The device types whose ranks have collectives here: the CPU's (host memory) and, in
// CUDA builds, NVIDIA's (NCCL, nccl/).
bool HasCollectives(int device_type) {
#ifdef INFINICTS_REF_CCL_WITH_NCCL
  if (device_type == INFINI_DEVICE_NVIDIA) return true;
#endif
  return device_type == INFINI_DEVICE_CPU;
}

}  // namespace

__INFINI_C infiniStatus_t infinicclCommInitAll(infiniDevice_t device_type, infinicclComm_t *comms, int ndevice,
                                               const int *device_ids) {
  if (comms == nullptr || device_ids == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (ndevice <= 0) return INFINI_STATUS_BAD_PARAM;
  const int type = infinicts::ref::ccl::EnumValue(device_type);
  int device_count = 0;
  if (!HasCollectives(type) ||
      infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), &device_count) != INFINI_STATUS_SUCCESS ||
      device_count <= 0) {
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
#ifdef INFINICTS_REF_CCL_WITH_NCCL
    if (type == INFINI_DEVICE_NVIDIA) return infinicts::ref::ccl::nccl::CommInitAll(devices, comms);
#endif
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
#ifdef INFINICTS_REF_CCL_WITH_NCCL
  // The id's kind follows the calling thread's current device, as CommInitRank's rank does:
  // with an NVIDIA device current it carries an NCCL id.
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int device = 0;
  if (infinirtGetDevice(&type, &device) == INFINI_STATUS_SUCCESS && type == INFINI_DEVICE_NVIDIA) {
    return Guarded([&] { return infinicts::ref::ccl::nccl::NewUniqueId(unique_id); });
  }
#endif
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
#ifdef INFINICTS_REF_CCL_WITH_NCCL
  if (type == INFINI_DEVICE_NVIDIA) {
    return Guarded([&] { return infinicts::ref::ccl::nccl::CommInitRank(comm, nranks, unique_id, rank, device); });
  }
#endif
  if (type != INFINI_DEVICE_CPU) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  if (!infinicts::ref::ccl::IsUniqueId(unique_id)) return INFINI_STATUS_BAD_PARAM;
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

// Groups are per calling thread (the comm argument is not needed): see group.h; in CUDA
// builds each level is an NCCL group level too (nccl/groups.h).
__INFINI_C infiniStatus_t infinicclGroupStart(infinicclComm_t /*comm*/) {
#ifdef INFINICTS_REF_CCL_WITH_NCCL
  const infiniStatus_t status = infinicts::ref::ccl::nccl::OpenNcclGroup();
  if (status != INFINI_STATUS_SUCCESS) return status;
#endif
  infinicts::ref::ccl::OpenGroup();
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinicclGroupEnd(infinicclComm_t /*comm*/) {
  return Guarded([] {
#ifdef INFINICTS_REF_CCL_WITH_NCCL
    const infiniStatus_t on_nccl = infinicts::ref::ccl::nccl::CloseNcclGroup();
    const infiniStatus_t on_cpu = infinicts::ref::ccl::CloseGroup();
    return on_cpu != INFINI_STATUS_SUCCESS ? on_cpu : on_nccl;
#else
    return infinicts::ref::ccl::CloseGroup();
#endif
  });
}
