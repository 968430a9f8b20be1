#include "op/target_runtime.h"

#include <dlfcn.h>

#include <string>

#include "common/fault_env.h"
#include "op/op_table.h"

namespace infinicts::fault {
namespace {

void *RuntimeLibrary() {
  TargetOp();  // the real operator library, with the runtime it depends on
  if (void *loaded = dlopen("libinfinirt.so", RTLD_NOW | RTLD_NOLOAD)) return loaded;
  return OpenTargetLibrary("libinfinirt.so", reinterpret_cast<const void *>(&RuntimeLibrary));
}

template <class Function>
void Bind(void *library, const char *name, Function &function) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  if (function == nullptr) Die(std::string("the target runtime does not export ") + name);
}

TargetRuntime Load() {
  void *library = RuntimeLibrary();
  TargetRuntime runtime;
  Bind(library, "infinirtStreamSynchronize", runtime.StreamSynchronize);
  Bind(library, "infinirtGetDevice", runtime.GetDevice);
  Bind(library, "infinirtSetDevice", runtime.SetDevice);
  runtime.StreamEnqueue = reinterpret_cast<decltype(runtime.StreamEnqueue)>(dlsym(library, "infinictsRefStreamEnqueue"));
  return runtime;
}

}  // namespace

const TargetRuntime &RealRuntime() {
  static const TargetRuntime runtime = Load();
  return runtime;
}

bool WaitForStream(void *stream) { return RealRuntime().StreamSynchronize(stream) == INFINI_STATUS_SUCCESS; }

infiniStatus_t OverwriteAfterReal(void *stream, const std::function<infiniStatus_t()> &real,
                                  const std::function<void()> &overwrite) {
  if (!WaitForStream(stream)) return real();
  const infiniStatus_t status = real();
  if (status != INFINI_STATUS_SUCCESS || !WaitForStream(stream)) return status;
  overwrite();
  return status;
}

}  // namespace infinicts::fault
