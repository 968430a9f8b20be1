#include <dlfcn.h>

#include "common/fault_env.h"
#include "common/fault_registry.h"
#include "rt/rt_faults.h"
#include "rt/rt_table.h"
#include "rt/synchronize_hook.h"

namespace infinicts::fault {
namespace {

#define INFINICTS_TARGET_TABLE RtTable
#define INFINICTS_TARGET_SYMBOLS "backend/rt_symbols.def"
#define INFINICTS_TARGET_LIBRARY "libinfinirt.so"
#include "common/load_target.inc"

}  // namespace

const RtTable &TargetRt() {
  static const RtTable table = LoadTarget();
  return table;
}

const RtTable &ActiveRt() {
  // The hook comes last: deferred operator work runs after whatever the fault made of a synchronize.
  static const RtTable table = WithSynchronizeHook(WithFaults(TargetRt(), RequestedFaults(), RtFaults()));
  return table;
}

}  // namespace infinicts::fault
