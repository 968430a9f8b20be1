#include <dlfcn.h>

#include "common/fault_env.h"
#include "common/fault_registry.h"
#include "rt/rt_faults.h"
#include "rt/rt_table.h"
#include "rt/synchronize_hook.h"

namespace infinicts::fault {
namespace {

namespace not_exported {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define X(name, params, args) \
  infiniStatus_t name params { return INFINI_STATUS_NOT_IMPLEMENTED; }
#include "backend/rt_symbols.def"
#undef X
#pragma GCC diagnostic pop
}  // namespace not_exported

RtTable LoadTarget() {
  void *handle = OpenTargetLibrary("libinfinirt.so", reinterpret_cast<const void *>(&LoadTarget));
  RtTable table;
#define X(name, params, args)                                             \
  if (void *symbol = dlsym(handle, #name)) {                              \
    table.name = reinterpret_cast<decltype(&::name)>(symbol);             \
  } else {                                                                \
    table.name = &not_exported::name;                                     \
  }
#include "backend/rt_symbols.def"
#undef X
  return table;
}

}  // namespace

const RtTable &TargetRt() {
  static const RtTable table = LoadTarget();
  return table;
}

const RtTable &ActiveRt() {
  // The hook comes last: deferred operator work runs after whatever the fault made of a synchronize.
  static const RtTable table = WithSynchronizeHook(WithFault(TargetRt(), RequestedFaultName(), RtFaults()));
  return table;
}

}  // namespace infinicts::fault
