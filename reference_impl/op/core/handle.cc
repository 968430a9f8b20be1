#include "core/handle.h"

#include <new>

#include "infinirt.h"

namespace {

bool IsServedDevice(infiniDevice_t type) {
#ifdef INFINIOP_WITH_CUDA
  if (type == INFINI_DEVICE_NVIDIA) return true;
#endif
  return type == INFINI_DEVICE_CPU;
}

}  // namespace

__INFINI_C infiniStatus_t infiniopCreateHandle(infiniopHandle_t *handle_ptr) {
  if (handle_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int id = 0;
  const infiniStatus_t status = infinirtGetDevice(&type, &id);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // The CPU devices compute on the host; NVIDIA devices (CUDA builds) launch the CUDA paths
  // of cuda/ on the device the runtime made current, which a handle keeps for good.
  if (!IsServedDevice(type)) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  auto *handle = new (std::nothrow) InfiniopHandle{type, id};
  if (handle == nullptr) return INFINI_STATUS_INTERNAL_ERROR;
  *handle_ptr = handle;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infiniopDestroyHandle(infiniopHandle_t handle) {
  if (handle == nullptr) return INFINI_STATUS_NULL_POINTER;
  delete handle;
  return INFINI_STATUS_SUCCESS;
}
