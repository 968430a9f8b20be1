// A tiny InfiniRT backend for the runner's tests: a few runtime symbols, one cpu
// device (FAKE_RT_CPU_DEVICES changes the count) and no device of any other type.
// FAKE_RT_CRASH_IN_INIT=1 makes infinirtInit crash, as a broken driver would;
// FAKE_RT_CRASH_IN_SYNCHRONIZE=1 does the same to infinirtDeviceSynchronize.
#include <signal.h>

#include <cstdlib>

#include "infinirt.h"

namespace {

thread_local infiniDevice_t current_type = INFINI_DEVICE_CPU;
thread_local int current_id = 0;

int CpuDeviceCount() {
  const char *text = std::getenv("FAKE_RT_CPU_DEVICES");
  return text && *text ? std::atoi(text) : 1;
}

}  // namespace

__INFINI_C __export infiniStatus_t infinirtInit(void) {
  const char *crash = std::getenv("FAKE_RT_CRASH_IN_INIT");
  if (crash && *crash == '1') raise(SIGSEGV);
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C __export infiniStatus_t infinirtGetDeviceCount(infiniDevice_t device, int *count) {
  if (count == nullptr) return INFINI_STATUS_NULL_POINTER;
  *count = device == INFINI_DEVICE_CPU ? CpuDeviceCount() : 0;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C __export infiniStatus_t infinirtSetDevice(infiniDevice_t device, int device_id) {
  if (device != INFINI_DEVICE_CPU) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  if (device_id < 0 || device_id >= CpuDeviceCount()) return INFINI_STATUS_DEVICE_NOT_FOUND;
  current_type = device;
  current_id = device_id;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C __export infiniStatus_t infinirtGetDevice(infiniDevice_t *device_ptr, int *device_id_ptr) {
  if (device_ptr == nullptr || device_id_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  *device_ptr = current_type;
  *device_id_ptr = current_id;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C __export infiniStatus_t infinirtMalloc(void **p_ptr, size_t size) {
  if (p_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  *p_ptr = size == 0 ? nullptr : std::malloc(size);
  return size != 0 && *p_ptr == nullptr ? INFINI_STATUS_INTERNAL_ERROR : INFINI_STATUS_SUCCESS;
}

__INFINI_C __export infiniStatus_t infinirtFree(void *ptr) {
  std::free(ptr);
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C __export infiniStatus_t infinirtDeviceSynchronize(void) {
  const char *crash = std::getenv("FAKE_RT_CRASH_IN_SYNCHRONIZE");
  if (crash && *crash == '1') raise(SIGSEGV);
  return INFINI_STATUS_SUCCESS;
}
