// InfiniRT: initialisation and devices.
#include "runtime/routing.h"

using infinicts::ref::CurrentDevice;
using infinicts::ref::DeviceRuntime;

namespace {

bool TypeInRange(infiniDevice_t type) { return type >= 0 && type < INFINI_DEVICE_TYPE_COUNT; }

int CountOf(infiniDevice_t type) {
  DeviceRuntime *runtime = infinicts::ref::RuntimeFor(type);
  return runtime == nullptr ? 0 : runtime->DeviceCount();
}

// The statuses of a call naming a device: an unknown type, then an id out of range.
infiniStatus_t CheckDevice(infiniDevice_t type, int id) {
  const int count = TypeInRange(type) ? CountOf(type) : 0;
  if (count == 0) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  if (id < 0 || id >= count) return INFINI_STATUS_DEVICE_NOT_FOUND;
  return INFINI_STATUS_SUCCESS;
}

}  // namespace

__INFINI_C infiniStatus_t infinirtInit(void) {
  // Building the table reads the environment and sizes the devices once.
  infinicts::ref::AllRuntimes();
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtGetAllDeviceCount(int *count_array) {
  if (count_array == nullptr) return INFINI_STATUS_NULL_POINTER;
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    count_array[type] = CountOf(static_cast<infiniDevice_t>(type));
  }
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtGetDeviceCount(infiniDevice_t device, int *count) {
  if (count == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (!TypeInRange(device)) {
    *count = 0;
    return INFINI_STATUS_BAD_PARAM;
  }
  *count = CountOf(device);
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtSetDevice(infiniDevice_t device, int device_id) {
  const infiniStatus_t status = CheckDevice(device, device_id);
  if (status != INFINI_STATUS_SUCCESS) return status;
  infinicts::ref::SetCurrentDevice(CurrentDevice{device, device_id});
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtGetDevice(infiniDevice_t *device_ptr, int *device_id_ptr) {
  // Either pointer may be NULL (a caller asking for the type alone); not both.
  if (device_ptr == nullptr && device_id_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  const CurrentDevice current = infinicts::ref::GetCurrentDevice();
  if (device_ptr != nullptr) *device_ptr = current.type;
  if (device_id_ptr != nullptr) *device_id_ptr = current.id;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtGetMemInfo(infiniDevice_t device, int device_id, size_t *free_bytes,
                                             size_t *total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return INFINI_STATUS_NULL_POINTER;
  const infiniStatus_t status = CheckDevice(device, device_id);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return infinicts::ref::RuntimeFor(device)->MemInfo(device_id, free_bytes, total_bytes);
}

__INFINI_C infiniStatus_t infinirtGetDeviceResourceSnapshot(infiniDevice_t device, int device_id,
                                                            infinirtDeviceResourceSnapshot_t *snapshot) {
  if (snapshot == nullptr) return INFINI_STATUS_NULL_POINTER;
  infiniStatus_t status = CheckDevice(device, device_id);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // Memory is all the reference observes: its devices keep no utilisation or traffic counters.
  infinirtDeviceResourceSnapshot_t filled{};
  filled.device_type = device;
  filled.device_id = device_id;
  status = infinicts::ref::RuntimeFor(device)->MemInfo(device_id, &filled.free_bytes, &filled.total_bytes);
  if (status != INFINI_STATUS_SUCCESS) return status;
  filled.used_bytes = filled.total_bytes - filled.free_bytes;
  filled.valid_fields = INFINIRT_RESOURCE_FIELD_MEMORY_CAPACITY;
  *snapshot = filled;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtDeviceSynchronize(void) {
  DeviceRuntime *runtime = nullptr;
  int device = 0;
  infiniStatus_t status = infinicts::ref::RouteCurrentDevice(&runtime, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->SynchronizeDevice(device);
}
