#include <dlfcn.h>

#include "ccl/ccl_faults.h"
#include "ccl/ccl_table.h"
#include "common/fault_env.h"
#include "common/fault_registry.h"

namespace infinicts::fault {
namespace {

#define INFINICTS_TARGET_TABLE CclTable
#define INFINICTS_TARGET_SYMBOLS "backend/ccl_symbols.def"
#define INFINICTS_TARGET_LIBRARY "libinfiniccl.so"
#include "common/load_target.inc"

}  // namespace

const CclTable &TargetCcl() {
  static const CclTable table = LoadTarget();
  return table;
}

const CclTable &ActiveCcl() {
  static const CclTable table = WithFaults(TargetCcl(), RequestedFaults(), CclFaults());
  return table;
}

}  // namespace infinicts::fault
