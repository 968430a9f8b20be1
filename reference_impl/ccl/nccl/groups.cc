#include "ccl/nccl/groups.h"

#include <nccl.h>

#include <memory>
#include <utility>
#include <vector>

#include "ccl/nccl/keep_current_device.h"
#include "ccl/nccl/nccl_types.h"
#include "infinirt.h"

namespace infinicts::ref::ccl::nccl {
namespace {

// The count is fixed for the process (CUDA reads the visible devices once).
bool HasNvidiaDevice() {
  static const bool has = [] {
    int count = 0;
    return infinirtGetDeviceCount(INFINI_DEVICE_NVIDIA, &count) == INFINI_STATUS_SUCCESS && count > 0;
  }();
  return has;
}

// Trivially destructible and initial-exec, as group.cc's state: `held` exists only while
// an open group holds steps.
struct NcclGroupState {
  int open_levels;
  std::vector<std::function<infiniStatus_t()>> *held;
};
__attribute__((tls_model("initial-exec"))) thread_local NcclGroupState nccl_group{0, nullptr};

}  // namespace

infiniStatus_t OpenNcclGroup() {
  if (!HasNvidiaDevice()) return INFINI_STATUS_SUCCESS;
  const infiniStatus_t status = ToStatus(ncclGroupStart());
  if (status == INFINI_STATUS_SUCCESS) ++nccl_group.open_levels;
  return status;
}

infiniStatus_t CloseNcclGroup() {
  if (nccl_group.open_levels == 0) return INFINI_STATUS_SUCCESS;
  --nccl_group.open_levels;
  infiniStatus_t first_failure = INFINI_STATUS_SUCCESS;
  {
    const KeepCurrentDevice keep_current;
    first_failure = ToStatus(ncclGroupEnd());
  }
  if (nccl_group.open_levels > 0 || nccl_group.held == nullptr) return first_failure;
  const std::unique_ptr<std::vector<std::function<infiniStatus_t()>>> held(nccl_group.held);
  nccl_group.held = nullptr;
  // Run even after a failed launch: the steps also give back temporary memory.
  for (const auto &step : *held) {
    const infiniStatus_t status = step();
    if (first_failure == INFINI_STATUS_SUCCESS) first_failure = status;
  }
  return first_failure;
}

infiniStatus_t AfterLaunch(std::function<infiniStatus_t()> step) {
  if (nccl_group.open_levels == 0) return step();
  if (nccl_group.held == nullptr) nccl_group.held = new std::vector<std::function<infiniStatus_t()>>;
  nccl_group.held->push_back(std::move(step));
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::ref::ccl::nccl
