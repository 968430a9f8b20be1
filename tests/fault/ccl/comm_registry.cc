#include "ccl/comm_registry.h"

#include <map>
#include <mutex>
#include <vector>

#include "ccl/ccl_runtime.h"

namespace infinicts::fault {
namespace {

struct Tracked {
  CommMember member;
  std::vector<void *> to_free;
};

std::mutex registry_mutex;
std::map<infinicclComm_t, Tracked> registry;

infiniStatus_t RecordingCommInitAll(infiniDevice_t type, infinicclComm_t *comms, int ndevice, const int *ids) {
  const infiniStatus_t status = TargetCcl().infinicclCommInitAll(type, comms, ndevice, ids);
  if (status != INFINI_STATUS_SUCCESS) return status;
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (int r = 0; r < ndevice; ++r) registry[comms[r]] = Tracked{CommMember{r, ndevice, type, ids[r]}, {}};
  return status;
}

infiniStatus_t RecordingCommInitRank(infinicclComm_t *comm, int nranks, infinicclUniqueId_t id, int rank) {
  const infiniStatus_t status = TargetCcl().infinicclCommInitRank(comm, nranks, id, rank);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // The rank lives on the device current on the calling thread.
  CommMember member{rank, nranks, INFINI_DEVICE_CPU, 0};
  RealRuntimeForCcl().GetDevice(&member.type, &member.device);
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry[*comm] = Tracked{member, {}};
  return status;
}

infiniStatus_t RecordingCommDestroy(infinicclComm_t comm) {
  Tracked tracked;
  bool known = false;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto found = registry.find(comm);
    if (found != registry.end()) {
      tracked = std::move(found->second);
      registry.erase(found);
      known = true;
    }
  }
  if (known && !tracked.to_free.empty()) {
    RealDeviceScope on_device(tracked.member.type, tracked.member.device);
    for (void *memory : tracked.to_free) RealRuntimeForCcl().Free(memory);
  }
  return TargetCcl().infinicclCommDestroy(comm);
}

}  // namespace

void TrackCommunicators(CclTable &calls) {
  calls.infinicclCommInitAll = &RecordingCommInitAll;
  calls.infinicclCommInitRank = &RecordingCommInitRank;
  calls.infinicclCommDestroy = &RecordingCommDestroy;
}

std::optional<CommMember> FindMember(infinicclComm_t comm) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto found = registry.find(comm);
  if (found == registry.end()) return std::nullopt;
  return found->second.member;
}

void FreeAtDestroy(infinicclComm_t comm, void *device_memory) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry[comm].to_free.push_back(device_memory);
}

}  // namespace infinicts::fault
