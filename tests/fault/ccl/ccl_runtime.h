// The runtime the real collective library runs on (the real libinfinirt.so, not the
// runtime wrapper): the collective faults that do host-side work wait for a stream, move
// between devices and copy through it, without the runtime wrapper and its faults.
#pragma once

#include "infinirt.h"

namespace infinicts::fault {

struct CclRuntime {
  decltype(&::infinirtGetDevice) GetDevice = nullptr;
  decltype(&::infinirtSetDevice) SetDevice = nullptr;
  decltype(&::infinirtStreamSynchronize) StreamSynchronize = nullptr;
  decltype(&::infinirtMalloc) Malloc = nullptr;
  decltype(&::infinirtFree) Free = nullptr;
  decltype(&::infinirtMemcpy) Memcpy = nullptr;
  decltype(&::infinirtMemsetAsync) MemsetAsync = nullptr;
};

// Loaded on first use: the libinfinirt.so the real libinfiniccl.so was linked against
// (found by its soname among the loaded libraries), else the one in $INFINICTS_FAULT_TARGET.
const CclRuntime &RealRuntimeForCcl();

// Makes a device current for its scope and restores the previous one.
class RealDeviceScope {
 public:
  RealDeviceScope(infiniDevice_t type, int id);
  ~RealDeviceScope();
  RealDeviceScope(const RealDeviceScope &) = delete;
  RealDeviceScope &operator=(const RealDeviceScope &) = delete;

 private:
  infiniDevice_t previous_type_ = INFINI_DEVICE_CPU;
  int previous_id_ = 0;
  bool restore_ = false;
};

}  // namespace infinicts::fault
