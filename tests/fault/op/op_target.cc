#include <dlfcn.h>

#include "common/fault_env.h"
#include "common/fault_registry.h"
#include "op/op_faults.h"
#include "op/op_table.h"

namespace infinicts::fault {
namespace {

#define INFINICTS_TARGET_TABLE OpTable
#define INFINICTS_TARGET_SYMBOLS "backend/op_symbols.def"
#define INFINICTS_TARGET_LIBRARY "libinfiniop.so"
#include "common/load_target.inc"

}  // namespace

const OpTable &TargetOp() {
  static const OpTable table = LoadTarget();
  return table;
}

const OpTable &ActiveOp() {
  static const OpTable table = WithFaults(TargetOp(), RequestedFaults(), OpFaults());
  return table;
}

}  // namespace infinicts::fault
