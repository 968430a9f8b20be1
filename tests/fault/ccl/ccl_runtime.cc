#include "ccl/ccl_runtime.h"

#include <dlfcn.h>

#include <string>

#include "ccl/ccl_table.h"
#include "common/fault_env.h"

namespace infinicts::fault {
namespace {

void *RuntimeLibrary() {
  TargetCcl();  // the real collective library, with the runtime it depends on
  if (void *loaded = dlopen("libinfinirt.so", RTLD_NOW | RTLD_NOLOAD)) return loaded;
  return OpenTargetLibrary("libinfinirt.so", reinterpret_cast<const void *>(&RuntimeLibrary));
}

template <class Function>
void Bind(void *library, const char *name, Function &function) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  if (function == nullptr) Die(std::string("the target runtime does not export ") + name);
}

CclRuntime Load() {
  void *library = RuntimeLibrary();
  CclRuntime runtime;
  Bind(library, "infinirtGetDevice", runtime.GetDevice);
  Bind(library, "infinirtSetDevice", runtime.SetDevice);
  Bind(library, "infinirtStreamSynchronize", runtime.StreamSynchronize);
  Bind(library, "infinirtMalloc", runtime.Malloc);
  Bind(library, "infinirtFree", runtime.Free);
  Bind(library, "infinirtMemcpy", runtime.Memcpy);
  Bind(library, "infinirtMemsetAsync", runtime.MemsetAsync);
  return runtime;
}

}  // namespace

const CclRuntime &RealRuntimeForCcl() {
  static const CclRuntime runtime = Load();
  return runtime;
}

RealDeviceScope::RealDeviceScope(infiniDevice_t type, int id) {
  const CclRuntime &rt = RealRuntimeForCcl();
  restore_ = rt.GetDevice(&previous_type_, &previous_id_) == INFINI_STATUS_SUCCESS;
  rt.SetDevice(type, id);
}

RealDeviceScope::~RealDeviceScope() {
  if (restore_) RealRuntimeForCcl().SetDevice(previous_type_, previous_id_);
}

}  // namespace infinicts::fault
