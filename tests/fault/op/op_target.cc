#include <dlfcn.h>

#include "common/fault_env.h"
#include "common/fault_registry.h"
#include "op/op_faults.h"
#include "op/op_table.h"

namespace infinicts::fault {
namespace {

namespace not_exported {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define X(name, params, args) \
  infiniStatus_t name params { return INFINI_STATUS_NOT_IMPLEMENTED; }
#include "backend/op_symbols.def"
#undef X
#pragma GCC diagnostic pop
}  // namespace not_exported

OpTable LoadTarget() {
  void *handle = OpenTargetLibrary("libinfiniop.so", reinterpret_cast<const void *>(&LoadTarget));
  OpTable table;
#define X(name, params, args)                                             \
  if (void *symbol = dlsym(handle, #name)) {                              \
    table.name = reinterpret_cast<decltype(&::name)>(symbol);             \
  } else {                                                                \
    table.name = &not_exported::name;                                     \
  }
#include "backend/op_symbols.def"
#undef X
  return table;
}

}  // namespace

const OpTable &TargetOp() {
  static const OpTable table = LoadTarget();
  return table;
}

const OpTable &ActiveOp() {
  static const OpTable table = WithFault(TargetOp(), RequestedFaultName(), OpFaults());
  return table;
}

}  // namespace infinicts::fault
